// Package suggest finds the name a misspelt one probably meant, for the
// "did you mean" of messages: a schema keyword ("minLenght"), a type
// ("strin"), a field of agent.json ("system_promt").
package suggest
