package oddl

import "context"

// AutoEpochs, as the epochs of TrainMore, lets the model's state decide
// how much more to train.
const AutoEpochs = -1

// TrainMore is the policy of oddl train -resume, online learning's
// counterpart of scikit-learn's partial_fit: it trains the model further
// on src. With epochs ≥ 0 it adds that many epochs (Continue). With
// AutoEpochs it finishes an interrupted run (Resume) or, when the model
// has done its epochs, adds one more pass over src.
func (m *Model) TrainMore(ctx context.Context, src Source, epochs int, opts ...Option) error {
	switch {
	case epochs >= 0:
		return m.Continue(ctx, src, epochs, opts...)
	case m.Done():
		return m.Continue(ctx, src, 1, opts...)
	}
	return m.Resume(ctx, src, opts...)
}

// NameClasses gives the model the names of its training data's classes
// (see SetClassNames) unless it has names of its own: a model trained
// further keeps the names it has, its new data having been mapped to its
// classes. Names of another count than the model's classes are left
// aside, as are nil and "0".."q−1".
func (m *Model) NameClasses(names []string) error {
	if m == nil || len(names) != m.Classes() || !defaultNames(m.ClassNames()) {
		return nil
	}
	return m.SetClassNames(names)
}
