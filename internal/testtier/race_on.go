//go:build race

package testtier

const race = true
