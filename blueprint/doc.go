// Package blueprint reads agent blueprints (agent.json) and turns them into
// model runs: it validates a run's parameters, builds its prompts, chooses
// its output schema and shapes its result.
//
// Start with [Load] (one agent.json, or the folder holding it) or [LoadDir]
// (every agent below a folder):
//
//	bp, err := blueprint.Load("config/agents/summarizer")
//	if err != nil { ... } // *LoadError: which file, which field, why
//	fmt.Println(bp.Name(), bp.Type())
//
// # Blueprints
//
// A [Blueprint] holds name, description, type (autonomous or procedural),
// system_prompt, tags, parameters_schema, output_schema,
// default_output_schema and default_output_schema_options. Every schema is
// compiled when the blueprint is read, so a bad one fails the load with the
// field, the place in the schema and the reason ([*FieldError]). A field
// that is null is "not configured". Fields this package does not know are
// kept and written back by [Blueprint.MarshalJSON].
//
// # Results
//
// A [Result] is either free text (result_text) or validated JSON
// (result_data), never both. [ResultEvent] is the event announcing it and
// [Callback] the block a parent agent receives from a finished child.
package blueprint
