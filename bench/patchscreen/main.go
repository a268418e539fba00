// Command patchscreen compares settings of the patch front end
// (oddl.Config.Patches) on MNIST's training digits, as docs/RESULTS.md
// reports: it holds out the per-class sixth of the training set that
// oddl train -validate 0.16667 and oddl select hold out (seed 1), trains
// the defaults with the given front end on the first -n of the other
// digits (all of them by default), and prints the held-out error for
// each residual weight β. The test set is never read.
//
//	go run ./bench/patchscreen -n 10000 -cells 3
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
)

func rowsOf(X *mat.Dense, idx []int) *mat.Dense {
	_, n := X.Dims()
	Y := mat.NewDense(len(idx), n, nil)
	for i, j := range idx {
		copy(Y.RawRowView(i), X.RawRowView(j))
	}
	return Y
}

func main() {
	limit := flag.Int("n", 0, "train on the first `N` of the kept digits (0: all)")
	cfg := patch.DefaultConfig()
	flag.IntVar(&cfg.Size, "size", cfg.Size, "patch side")
	flag.IntVar(&cfg.Stride, "stride", cfg.Stride, "step between patch positions")
	flag.IntVar(&cfg.Atoms, "atoms", cfg.Atoms, "patch atoms")
	flag.IntVar(&cfg.L, "l", cfg.L, "sparsity of a patch's code")
	flag.IntVar(&cfg.Cells, "cells", cfg.Cells, "pooling cells a side")
	k := flag.Int("k", oddl.DefaultK, "atoms K of the dictionary on the features")
	L := flag.Int("L", oddl.DefaultL, "sparsity L of the codes on the features")
	betas := flag.String("betas", "0,3,10,30,100", "residual weights to score with")
	pixels := flag.Bool("pixels", false, "no front end: the defaults on the pixels, for comparison")
	flag.Parse()
	train, _, err := dataset.MNIST()
	if err != nil {
		log.Fatal(err)
	}
	keep, out := dataset.HoldOut(train.Labels, 1.0/6, 1)
	if *limit > 0 && *limit < len(keep) {
		keep = keep[:*limit]
	}
	lab := func(idx []int) []int {
		l := make([]int, len(idx))
		for i, j := range idx {
			l[i] = train.Labels[j]
		}
		return l
	}
	src, err := oddl.NewMatrixSource(rowsOf(train.X, keep), lab(keep), 10)
	if err != nil {
		log.Fatal(err)
	}
	oc := oddl.DefaultConfig()
	oc.K, oc.L = *k, *L
	// The image shape and the digits' deskewing, as oddl train sets them.
	oc = oddl.FitImage(oc, oddl.DataInfo{Name: "mnist", Image: oddl.Shape{Rows: train.Rows, Cols: train.Cols}, Size: oddl.DataSize{Dim: train.Dim()}}, oddl.Given{})
	if !*pixels {
		oc.Patches = cfg
	}
	m, err := oddl.Train(context.Background(), oc, src, oddl.WithThreads(1))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v k=%d L=%d train=%d:", oc.Patches, *k, *L, len(keep))
	Xo := rowsOf(train.X, out)
	for _, b := range strings.Split(*betas, ",") {
		v, err := strconv.ParseFloat(b, 64)
		if err != nil {
			log.Fatal(err)
		}
		if err := m.SetResidualWeight(v); err != nil {
			log.Fatal(err)
		}
		e, err := m.Evaluate(Xo, lab(out))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf(" β=%s %.2f%%", b, 100*e.ErrorRate)
	}
	fmt.Println()
}
