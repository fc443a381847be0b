package batch

// SetCrash makes r call crash at every step boundary of its runs; an error
// crash returns ends the run there, as a killed process would end.
func SetCrash(r *Runner, crash func(point string) error) { r.crash = crash }
