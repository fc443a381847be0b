// Package durable runs agentio's enforcement loop as a durable Temporal
// workflow: [EnforceWorkflow] calls the model through the activity
// [Activities.Generate] (registered as [GenerateActivity]) and decides, in
// workflow code, with the step-wise enforce.Enforcer, what to send next.
//
// The command in the parent directory runs it offline or on a server;
// module servertest runs it on a real Temporal server started in process.
//
//	w := worker.New(c, "agentio-enforce", worker.Options{})
//	w.RegisterWorkflow(durable.EnforceWorkflow)
//	w.RegisterActivityWithOptions((&durable.Activities{Model: model}).Generate,
//		activity.RegisterOptions{Name: durable.GenerateActivity})
package durable
