//go:build race

package membudget

// raceOn: the race detector, whose shadow memory the address space holds too.
const raceOn = true
