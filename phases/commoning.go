package phases

// LateOriCommoning: after predication, common equal instructions that
// are now side by side (ForceLateCommoning runs it even where the
// profitability test declines; DisableMoveCommoning keeps moves apart).

// lateCommoning: LateOriCommoning.
//
// Not yet implemented: a registered no-op that changes nothing and
// reports no counters.
func lateCommoning(p *Pass) bool { return false }
