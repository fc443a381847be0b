package enforce

import (
	"context"
	"log/slog"
)

// observe reports attempt a to the hooks and the logger.
func (e *Enforcer) observe(ctx context.Context, a Attempt) {
	for _, fn := range e.cfg.hooks {
		fn(ctx, a)
	}
	l := e.cfg.logger
	if l == nil || !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.Int("attempt", a.Number),
		slog.String("mode", string(a.Mode)),
		slog.String("outcome", string(a.Outcome)),
		slog.Int("violations", len(a.Violations)),
		slog.Int("input_tokens", a.Usage.InputTokens),
		slog.Int("output_tokens", a.Usage.OutputTokens),
		slog.Duration("duration", a.Duration),
	}
	if a.Response != nil {
		attrs = append(attrs, slog.String("stop_reason", string(a.Response.StopReason)))
	}
	if len(a.Fixes) > 0 {
		attrs = append(attrs, slog.Int("fixes", len(a.Fixes)))
	}
	if len(a.Notes) > 0 {
		attrs = append(attrs, slog.Any("notes", a.Notes))
	}
	if a.Err != nil {
		attrs = append(attrs, slog.String("error", a.Err.Error()))
	}
	l.LogAttrs(ctx, slog.LevelDebug, "enforce attempt", attrs...)
}
