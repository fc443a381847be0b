// Package blueprint reads agent blueprints (agent.json) and turns them into
// model runs: it validates a run's parameters, builds its prompts, chooses
// its output schema, enforces it, and shapes the result.
//
// To get started, [Load] a blueprint (an agent.json, or the folder holding
// it) and [Run] it:
//
//	bp, err := blueprint.Load("config/agents/pr-reviewer")
//	if err != nil { ... } // *LoadError: which file, which field, why
//	res, err := blueprint.Run(ctx, bp, p, map[string]any{"prompt": "Review PR 42."}, blueprint.RunSpec{})
//	if err != nil { ... } // *ParameterError, *enforce.ValidationError, ...
//	json.NewEncoder(w).Encode(res) // {"result_text": null, "result_data": {...}}
//
// [LoadDir] loads every agent below a folder; one bad blueprint is reported
// with its path and does not hide the others.
//
// # Blueprints
//
// A [Blueprint] holds name (a safe identifier), description, type
// ([TypeAutonomous], the default, or [TypeProcedural]), system_prompt (or
// an agent.system-prompt.md beside the agent.json), tags,
// parameters_schema, output_schema, default_output_schema and
// default_output_schema_options. Every schema is compiled when the
// blueprint is read, so a bad one fails the load with the field, the place
// in the schema and the reason ([*FieldError], wrapping the schema
// package's *schema.InvalidSchemaError); an output schema must describe an
// object with properties ([ErrOutputNotObject]). A field that is null is
// "not configured". Fields this package does not know are kept and written
// back, in order, by [Blueprint.MarshalJSON]. Lint findings in the schemas
// (a misspelt keyword) do not stop a load; [Blueprint.Warnings] lists them.
// A Blueprint is immutable and safe for concurrent use.
//
// # Parameters
//
// [Blueprint.ValidateParameters] checks a run's parameters before anything
// expensive starts. An autonomous agent always needs a string "prompt": its
// parameters_schema is merged with it (schema.MergePrompt, once, at load;
// the stored schema is left as written), and an agent without one gets the
// implicit {"prompt": string} schema. A procedural agent's schema is used
// as it is, and without one any parameters pass. A mismatch is a
// [*ParameterError], whose JSON is the parameter_validation_failed shape.
// [Blueprint.Prompt] renders the parameters into the user prompt as an
// `<inputs>` block (package inputs), in the schema's property order.
//
// # Output schemas
//
// [ResolveOutputSchema] chooses a run's output schema: the run's inline
// schema, else a schema it names in a registry.Registry, else the blueprint's
// default_output_schema, else its output_schema; with none the run
// produces free text. Options merge knob by knob: the run's
// ([OutputOptions]) over the blueprint's over [DefaultOptions].
// [Blueprint.SystemPrompt] adds the output-format section (the enforce
// package's wording) to the system prompt, and [Resolution.Enforcer] gives
// the step-wise enforce.Enforcer for orchestrators that run each attempt as
// a job of its own.
//
// validation_mode "lenient" coerces near misses by the schema
// before validating strictly: "5" for 5, "High" for "high", a bare list
// for the object that wraps it (enforce.WithLenient; the coercions made are
// in the enforce.Result). It never fills a missing field, rounds, clips or
// accepts a cut-off reply.
//
// # Checks a schema cannot state
//
// An agent.json may declare "invariants" (rules inside the agent's own
// output, such as counts that must match a list) and "contradictions"
// (rules comparing the outputs of the agents a fan-in agent reads), in the
// JSON forms of crosscheck.Invariant and crosscheck.Rule. Both are decoded
// strictly and compiled at load time (a [*FieldError] otherwise). [Run] and
// [Resolution.Enforcer] check the invariants on every schema-valid output,
// so a violation is re-asked like a schema one; [Blueprint.Annotate] adds
// the contradictions between upstream outputs to the agent's input.
//
// # Results
//
// A [Result] is either free text (result_text) or validated JSON
// (result_data), never both; its JSON always has both keys, the unused one
// null. [ResultEvent] is the event announcing it, and [Callback] renders
// the `<agent-callback session="..." status="...">` block a parent agent
// receives from a finished child, with its attributes escaped.
//
// # Errors
//
// Load-time problems are [*LoadError]s holding [*FieldError]s. A run fails
// before any model call with [*ParameterError], [ErrSchemaConflict],
// [*SchemaNotFoundError] (errors.Is [ErrSchemaNotFound], which is
// registry.ErrNotFound), [ErrNotAutonomous] or
// [ErrInvalidOption]. After the model was called, [Run] returns the
// enforce package's errors as they come: *enforce.ValidationError (whose
// JSON is the OutputSchemaValidationError shape), enforce.ErrRefused, or
// the provider's error.
package blueprint
