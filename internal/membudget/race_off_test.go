//go:build !race

package membudget

const raceOn = false
