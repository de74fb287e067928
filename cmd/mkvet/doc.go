// Command mkvet predicts the run time of message-passing programs from their source.
//
// Usage:
//
//	mkvet <subcommand> [flags] [args]
//
// Run "mkvet help" for the list of subcommands and "mkvet help <subcommand>" for the
// flags of one. Each subcommand lives in its own file of this package and registers
// itself with register in an init function.
package main
