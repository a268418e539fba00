// Command imagecsv writes a data set of images (mnist, usps, or IDX files,
// as oddl train -data names them) as CSV files of one image a row, the
// label first, under the header label,pixel0,pixel1,… — the form images
// are often passed around in, which docs/DATA.md ("Images in a CSV file")
// trains with oddl train -image. It writes DIR/train.csv and, when the set
// has one, DIR/test.csv.
//
//	go run ./bench/imagecsv -data mnist /tmp/mnist-csv
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"github.com/oddl-go/oddl/dataset"
)

func main() {
	name := flag.String("data", "mnist", "the data set: mnist, usps, or IDX images and labels `A,B`")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: imagecsv [-data SET] DIR")
	}
	dir := flag.Arg(0)
	train, test, err := dataset.LoadSamples(dataset.Request{Name: *name})
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for part, s := range map[string]dataset.Samples{"train": train, "test": test} {
		if !s.Present() {
			continue
		}
		if err := write(filepath.Join(dir, part+".csv"), s); err != nil {
			log.Fatal(err)
		}
	}
}

// write writes the samples of s to path, one a row: its label (as the
// set names its classes), then its values.
func write(path string, s dataset.Samples) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString("label")
	for j := range s.Dim() {
		fmt.Fprintf(w, ",pixel%d", j)
	}
	w.WriteString("\n")
	names, labels := s.Names(), s.Labels()
	row := make([]float64, s.Dim())
	for i := range s.Len() {
		w.WriteString(names[labels[i]])
		if s.Images != nil {
			s.Images.RowTo(row, i)
		} else {
			copy(row, s.Set.X.RawRowView(i))
		}
		for _, v := range row {
			w.WriteByte(',')
			w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
