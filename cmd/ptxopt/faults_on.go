//go:build ptxopt_faults

package main

import "github.com/ptxopt/ptxopt"

func init() { faultHook = ptxopt.InjectedFault }
