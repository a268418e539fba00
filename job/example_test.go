package job_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// Run makes what "oddl train -data mnist -limit 10000 -validate 0.2 -o
// mnist.oddl" makes: the same model, the same report.
func ExampleRun() {
	ctx := context.Background()
	train, test, err := dataset.LoadSamples(dataset.Request{Name: "mnist", Limit: 10000})
	if err != nil {
		log.Fatal(err)
	}
	res, err := job.Run(ctx, job.Spec{Config: oddl.DefaultConfig(), Data: "mnist",
		Train: train, Test: test, WithTest: true, Validate: 0.2, Out: "mnist.oddl"})
	var me *job.MemoryError
	switch {
	case errors.As(err, &me):
		log.Fatalf("%s = %d needs more memory than the %d bytes available", me.Setting, me.Value, me.Budget)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Printf("test error %.2f%%, residual weight %g chosen on %d held-out samples\n",
		100**res.Report.TestError, res.Report.ResidualWeight, res.Report.Validation.Samples)
}

// BindTrain turns the flags of "oddl train" into a Spec, refusing flags
// that do not go together in the command's words.
func ExampleBindTrain() {
	fs := flag.NewFlagSet("oddl train", flag.ContinueOnError)
	f := job.BindTrain(fs)
	if err := job.ParseFlags(fs, []string{"-data", "mnist", "-validate-keep"}); err != nil {
		log.Fatal(err)
	}
	err := f.Check()
	fmt.Println(err, errors.As(err, new(job.UsageError)))
	// Output: -validate-keep and -validate-grid need -validate true
}
