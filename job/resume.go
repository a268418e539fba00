package job

import (
	"fmt"
	"strings"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// CheckResume checks, before a saved model is read, what a command line
// asks of its continuation: none of the model's flags (ConfigFlags.Model)
// among those given, since a resumed model keeps its settings, and
// epochs to add in range. Its errors are usage *SettingErrors.
func CheckResume(addEpochs int, given selection.Fixed, model []string) error {
	var named []string
	for _, name := range model {
		if given[name] {
			named = append(named, name)
		}
	}
	if len(named) > 0 {
		return &SettingError{Setting: strings.Join(named, ", -"), Msg: "cannot change a saved model (-resume keeps its settings)", Usage: true}
	}
	if addEpochs < 0 || addEpochs > oddl.MaxEpochs {
		return &SettingError{Setting: "epochs", Msg: fmt.Sprintf("%d: need a count from 0 to %d", addEpochs, oddl.MaxEpochs), Usage: true}
	}
	return nil
}

// PrepareResume gives the saved model m, read from path, what the
// command line changes in it (the residual weight and the collaborative
// rule, when given in cfg) and checks that it can train further by
// addEpochs more epochs (a given count). It returns the model's
// settings. Its errors are *SettingErrors.
func PrepareResume(m *oddl.Model, path string, cfg oddl.Config, addEpochs int, given selection.Fixed) (oddl.Config, error) {
	if m.PredictionOnly() {
		return oddl.Config{}, &SettingError{Setting: "resume " + path, Err: oddl.ErrPredictionOnly}
	}
	if given["residual-weight"] {
		if err := m.SetResidualWeight(cfg.ResidualWeight); err != nil {
			return oddl.Config{}, &SettingError{Setting: "residual-weight", Err: err, Usage: true}
		}
	}
	if given["collaborative"] {
		if err := m.SetCollaborative(cfg.Collaborative); err != nil {
			return oddl.Config{}, &SettingError{Setting: "collaborative", Err: err, Usage: true}
		}
	}
	mc := m.Config()
	if given["epochs"] && addEpochs > oddl.MaxEpochs-mc.Epochs {
		return oddl.Config{}, &SettingError{Setting: "epochs", Msg: fmt.Sprintf("%d: the model has %d epochs already, at most %d in all", addEpochs, mc.Epochs, oddl.MaxEpochs), Usage: true}
	}
	return mc, nil
}
