package oddl

import (
	"fmt"
	"time"
)

// Progress describes training after a mini-batch.
type Progress struct {
	// Phase is "init" during the reconstructive initialisation and "train"
	// during the joint update.
	Phase string
	// Epoch is the pass of the phase under way (0-based) and Epochs the
	// number of passes of the joint phase.
	Epoch, Epochs int
	// Samples is the number of samples the phase has processed and Total
	// the number it processes in all.
	Samples, Total int64
	// Seen counts the samples processed by both phases, Batches the
	// mini-batches.
	Seen, Batches int64
	// Objective is the mean over the last mini-batch of
	// ||x − D a||² + λ0·||y − W a||² (λ0 = 0 in the initialisation), before
	// the batch's update; Reconstruction and Classification are its two
	// terms (Classification without the λ0 factor).
	Objective, Reconstruction, Classification float64
	// Average is a running average of Objective over recent mini-batches.
	Average float64
	// TrainError is the error rate of the classifier on the last mini-batch,
	// before the batch's update. With CodingStacked it is measured on the
	// codes that saw the labels, so it is optimistic.
	TrainError float64
	// Unused is the number of atoms skipped or reseeded as unused in the
	// last mini-batch.
	Unused int
	// SamplesPerSecond is the throughput of the phase in this run.
	SamplesPerSecond float64
	// Elapsed is the time this run has trained; Times the time by part over
	// all runs.
	Elapsed time.Duration
	Times   Times
}

// after books a processed batch: counters, progress, checkpoint.
func (t *trainer) after(cnt int, b batchStats, phase string, total int64) error {
	m := t.m
	m.cur.seen += int64(cnt)
	m.cur.batches++
	done := m.cur.initSeen
	if phase == "train" {
		done = m.jointSeen()
	}
	// Running average over about the last 20 mini-batches, restarted with
	// each phase (the objective gains the classification term).
	if done == int64(cnt) {
		m.avg = b.obj
	} else {
		m.avg += (b.obj - m.avg) / 20
	}
	if t.o.progress != nil {
		t.progress(b, phase, done, total)
	}
	if t.o.checkpoint != nil && m.cur.batches%int64(t.o.every) == 0 {
		return t.checkpoint()
	}
	return nil
}

func (t *trainer) progress(b batchStats, phase string, done, total int64) {
	m := t.m
	el := time.Since(t.phaseStart).Seconds()
	var sps float64
	if el > 0 {
		sps = float64(done-t.phaseBase) / el
	}
	epoch := m.cur.pass
	if phase == "init" {
		epoch = 0
	}
	t.o.progress(Progress{
		Phase: phase, Epoch: epoch, Epochs: m.cfg.Epochs,
		Samples: done, Total: total, Seen: m.cur.seen, Batches: m.cur.batches,
		Objective: b.obj, Reconstruction: b.rec, Classification: b.cls, Average: m.avg,
		TrainError: b.errRate, Unused: b.unused, SamplesPerSecond: sps,
		Elapsed: time.Since(t.runStart), Times: m.times,
	})
}

func (t *trainer) checkpoint() error {
	m := t.m
	if m.cur.phase == phaseInit || m.cfg.Lambda0 == 0 {
		fitW(m.st, m.cfg.Lambda1, t.c.impl)
	}
	m.invalidate()
	m.quiet.Store(true)
	err := t.o.checkpoint(m)
	m.quiet.Store(false)
	// A prediction in the callback cached a coder of this dictionary,
	// which the next mini-batch changes.
	m.invalidate()
	if err != nil {
		return fmt.Errorf("oddl: checkpoint: %w", err)
	}
	return nil
}
