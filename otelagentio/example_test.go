package otelagentio_test

import (
	"context"
	"fmt"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentio/agentio/enforce"
	"github.com/agentio/agentio/otelagentio"
	"github.com/agentio/agentio/provider/providertest"
	"github.com/agentio/agentio/schema"
)

// A traced run: a span for the run, one per call to the model.
func ExampleInstrumentation_Run() {
	spans := tracetest.NewInMemoryExporter()
	in, err := otelagentio.New(&otelagentio.Options{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)),
		MeterProvider:  sdkmetric.NewMeterProvider(),
		ProviderName:   "openai",
		Model:          "gpt-4.1-mini",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := providertest.New(providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`{"verdict": "approve"}`))
	if _, err := in.Run(context.Background(), p, enforce.Request{Prompt: "Review the diff."}, s); err != nil {
		fmt.Println(err)
		return
	}
	for _, span := range spans.GetSpans() {
		fmt.Println(span.Name, span.Status.Code)
	}
	// Output:
	// chat gpt-4.1-mini Error
	// chat gpt-4.1-mini Unset
	// enforce Unset
}

// A run made with enforce itself: Start names it for its schema, the
// wrapped provider traces each call and the options add the loop's verdict.
func ExampleInstrumentation_Start() {
	spans := tracetest.NewInMemoryExporter()
	in, err := otelagentio.New(&otelagentio.Options{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)),
		MeterProvider:  sdkmetric.NewMeterProvider(),
		Model:          "gpt-4.1-mini",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"verdict": {"enum": ["approve", "reject"]}}, "required": ["verdict"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := providertest.New(providertest.Text(`{"verdict": "maybe"}`), providertest.Text(`{"verdict": "approve"}`))

	ctx, end := in.Start(context.Background(), otelagentio.SchemaName("review"))
	res, err := enforce.Run(ctx, in.Provider(p), enforce.Request{Prompt: "Review the diff."}, s, in.Options()...)
	end(res, err)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, span := range spans.GetSpans() {
		outcome := ""
		for _, kv := range span.Attributes {
			if kv.Key == "agentio.attempt.outcome" || kv.Key == "agentio.outcome" {
				outcome = kv.Value.AsString()
			}
		}
		fmt.Println(span.Name, outcome)
	}
	// Output:
	// chat gpt-4.1-mini invalid
	// chat gpt-4.1-mini valid
	// enforce review valid
}
