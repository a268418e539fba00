package oddl

// Option configures Train, Resume and Continue, and (the run-time options
// WithBackend and WithThreads only) Load and LoadFrom.
type Option func(*options)

type options struct {
	progress   func(Progress)
	every      int
	checkpoint func(*Model) error
	newData    bool
	rt         runtimeOptions
	hinge      *hinge // tests: the refit's hinge settings
}

// runtimeOptions are the settings of the machine a model runs on, which
// do not define the model and are not saved with it.
type runtimeOptions struct {
	backend    string
	setBackend bool
	threads    int
	setThreads bool
}

func buildOptions(opts []Option) options {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// check refuses options that cannot run, before training starts.
func (o options) check() error {
	if o.checkpoint != nil && o.every < 1 {
		return configErr("checkpoint every %d mini-batches, need at least 1", o.every)
	}
	return nil
}

// WithBackend makes the model compute with the BLAS backend called name
// (see package blas; "" for the ODDL_BLAS environment variable or the best
// backend compiled in, the default). The backend does not change the
// results beyond rounding, and it is not saved with the model: a loaded
// model runs on the default backend unless Load is given this option. A
// backend that is unknown or not compiled in is an error wrapping
// ErrConfig.
func WithBackend(name string) Option {
	return func(o *options) { o.rt.backend, o.rt.setBackend = name, true }
}

// WithThreads makes the model compute on n threads (coding, BLAS and the
// parallel loops of training; 0, the default, for all cores:
// GOMAXPROCS). Results do not depend on it on the native and gonum
// backends; OpenBLAS may round differently with another count. It is not
// saved with the model.
func WithThreads(n int) Option {
	return func(o *options) { o.rt.threads, o.rt.setThreads = n, true }
}

// WithNewData lets Resume and Continue go on with a source other than the
// one the model was trained on (see Resume): online learning on new
// samples, on purpose.
func WithNewData() Option {
	return func(o *options) { o.newData = true }
}

// WithProgress makes training call f after every mini-batch, from the
// training goroutine. f must return quickly.
func WithProgress(f func(Progress)) Option {
	return func(o *options) { o.progress = f }
}

// WithCheckpoint makes training call f with the model after every `every`
// mini-batches (the model is then between two mini-batches: saving it gives
// a file that resumes exactly). An error from f stops training and is
// returned.
func WithCheckpoint(every int, f func(*Model) error) Option {
	return func(o *options) { o.every, o.checkpoint = every, f }
}
