package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// schemas are the five output contracts of the dataset, by kind.
var schemas = map[string]string{
	"invoice": `{"type":"object","properties":{` +
		`"invoice_number":{"type":"string"},"vendor":{"type":"string"},` +
		`"currency":{"type":"string","enum":["EUR","USD","GBP"]},"total":{"type":"number","minimum":0}},` +
		`"required":["invoice_number","vendor","currency","total"],"additionalProperties":false}`,
	"ticket": `{"type":"object","properties":{` +
		`"severity":{"type":"string","enum":["low","medium","high","critical"]},` +
		`"component":{"type":"string","enum":["billing","login","search","checkout","api"]},` +
		`"needs_human":{"type":"boolean"}},` +
		`"required":["severity","component","needs_human"],"additionalProperties":false}`,
	"contact": `{"type":"object","properties":{` +
		`"name":{"type":"string","minLength":1},"email":{"type":"string","pattern":"^[^@\\s]+@[^@\\s]+\\.[a-z]+$"},` +
		`"company":{"type":"string"}},` +
		`"required":["name","email","company"],"additionalProperties":false}`,
	"sentiment": `{"type":"object","properties":{` +
		`"label":{"type":"string","enum":["positive","negative","neutral"]},` +
		`"confidence":{"type":"number","minimum":0,"maximum":1}},` +
		`"required":["label","confidence"],"additionalProperties":false}`,
	"actions": `{"type":"object","properties":{"items":{"type":"array","minItems":1,"items":{"type":"object","properties":{` +
		`"owner":{"type":"string"},"task":{"type":"string"},"due":{"type":"string","pattern":"^2026-[0-9]{2}-[0-9]{2}$"}},` +
		`"required":["owner","task"],"additionalProperties":false}}},` +
		`"required":["items"],"additionalProperties":false}`,
}

var kinds = []string{"invoice", "ticket", "contact", "sentiment", "actions"}

var (
	vendors    = []string{"Northwind Traders", "Contoso Ltd", "Fabrikam Inc", "Tailspin Toys", "Wide World Importers", "Proseware", "Litware", "Adatum Corporation", "Coho Winery", "Lamna Healthcare"}
	goods      = []string{"desk lamps", "USB-C cables", "office chairs", "printer toner", "whiteboard markers", "monitor arms", "laptop stands", "coffee beans", "notebooks", "headsets"}
	currencies = []struct{ code, sign string }{{"EUR", "€"}, {"USD", "$"}, {"GBP", "£"}}
	first      = []string{"Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "Radia", "Tim", "Hedy", "John", "Sophie"}
	last       = []string{"Lovelace", "Hopper", "Turing", "Johnson", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra", "Perlman", "Berners-Lee", "Lamarr", "Backus", "Wilson"}
	titles     = []string{"Head of Procurement", "Senior Engineer", "Account Manager", "CTO", "Operations Lead", "Data Analyst"}
	teams      = []string{"platform", "billing", "mobile", "growth", "infra", "support"}
	tasks      = []string{"update the runbook", "send the contract draft", "fix the flaky login test", "book the venue", "review the Q3 budget", "migrate the staging database", "write the release notes", "call the supplier about the delay", "rotate the API keys", "prepare the demo"}
)

// ticketText holds complaint templates per component and severity.
var ticketText = map[string]map[string]string{
	"billing": {
		"low":      "The PDF of my last invoice shows the old company address. Not urgent, just for our records.",
		"medium":   "I was charged twice for the same month on my card. Please refund the duplicate.",
		"high":     "None of our 40 seats were billed correctly this month and finance is blocking renewals.",
		"critical": "Every customer in our EU region is being charged 100x the price since this morning's deploy.",
	},
	"login": {
		"low":      "The 'remember me' box is unchecked every time I open the login page.",
		"medium":   "Password reset emails take about an hour to arrive.",
		"high":     "Half of my team cannot log in with SSO since yesterday.",
		"critical": "Nobody in the company can log in at all, SSO or password; we are completely locked out.",
	},
	"search": {
		"low":      "Search results would be nicer if they highlighted the matching words.",
		"medium":   "Searching for order numbers with a dash returns nothing.",
		"high":     "Search returns other tenants' documents in the results for some queries.",
		"critical": "Search is leaking customer records from other accounts to anonymous users.",
	},
	"checkout": {
		"low":      "The coupon field placeholder text has a typo.",
		"medium":   "The checkout page is slow, about 8 seconds, on mobile.",
		"high":     "Customers with a saved card get an error at payment about a third of the time.",
		"critical": "Checkout fails for every order; we have taken no payments for two hours.",
	},
	"api": {
		"low":      "The API docs example for pagination uses a deprecated parameter.",
		"medium":   "The /v2/orders endpoint sometimes returns 502 under light load.",
		"high":     "Webhooks stopped being delivered to our endpoint since the last release.",
		"critical": "All API calls return 500 for every token, production is down.",
	},
}

var severities = []string{"low", "medium", "high", "critical"}
var components = []string{"billing", "login", "search", "checkout", "api"}

// reviews holds review sentences per label.
var reviews = map[string][]string{
	"positive": {"Setup took five minutes and support answered within the hour.", "Best purchase this year, the battery lasts for days.", "Clear docs, fair price, and it just works."},
	"negative": {"It broke after two weeks and nobody replies to my emails.", "The app crashes every time I open the settings.", "Overpriced, slow, and the refund took a month."},
	"neutral":  {"It arrived on Tuesday; I have not used it much yet.", "Does what the box says, nothing more.", "The colour is a bit darker than in the photos, otherwise as described."},
}

// makeCases generates n cases, cycling through the kinds.
func makeCases(rng *rand.Rand, n int) []spec {
	specs := make([]spec, 0, n)
	for i := range n {
		kind := kinds[i%len(kinds)]
		s := spec{id: fmt.Sprintf("%s-%03d", kind, i/len(kinds)+1), kind: kind, expected: kind != "sentiment"}
		switch kind {
		case "invoice":
			s.prompt, s.truth = invoice(rng, i)
		case "ticket":
			s.prompt, s.truth = ticket(rng, i)
		case "contact":
			s.prompt, s.truth = contact(rng, i)
		case "sentiment":
			s.prompt, s.truth = sentiment(rng, i)
		case "actions":
			s.prompt, s.truth = actions(rng, i)
		}
		specs = append(specs, s)
	}
	return specs
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func invoice(rng *rand.Rand, i int) (string, map[string]any) {
	vendor, cur := pick(rng, vendors), pick(rng, currencies)
	number := fmt.Sprintf("INV-2026-%04d", 1000+i*7)
	var lines []string
	cents := 0
	for range 1 + rng.IntN(3) {
		qty, price := 1+rng.IntN(20), 199+rng.IntN(9800)
		cents += qty * price
		lines = append(lines, fmt.Sprintf("  %d x %s at %s%d.%02d", qty, pick(rng, goods), cur.sign, price/100, price%100))
	}
	total := float64(cents) / 100
	prompt := fmt.Sprintf("Extract the invoice number, vendor, currency and total from this email.\n\n"+
		"From: billing@%s.example\nSubject: Invoice %s\n\nHello,\n\nplease find attached invoice %s from %s for:\n%s\n\n"+
		"Total due: %s%.2f (%s), payable within 30 days.\n\nKind regards,\nAccounts receivable",
		strings.ToLower(strings.Fields(vendor)[0]), number, number, vendor, strings.Join(lines, "\n"), cur.sign, total, cur.code)
	return prompt, map[string]any{"invoice_number": number, "vendor": vendor, "currency": cur.code, "total": math.Round(total*100) / 100}
}

func ticket(rng *rand.Rand, i int) (string, map[string]any) {
	comp, sev := pick(rng, components), pick(rng, severities)
	human := sev == "high" || sev == "critical"
	prompt := fmt.Sprintf("Triage this support ticket: its severity, the component it concerns, and whether it needs a human now.\n\n"+
		"Ticket #%d from %s %s:\n%s", 48000+i*3, pick(rng, first), pick(rng, last), ticketText[comp][sev])
	return prompt, map[string]any{"severity": sev, "component": comp, "needs_human": human}
}

func contact(rng *rand.Rand, i int) (string, map[string]any) {
	fn, ln, company := pick(rng, first), pick(rng, last), pick(rng, vendors)
	domain := strings.ToLower(strings.Fields(company)[0]) + ".example"
	email := fmt.Sprintf("%s.%s%d@%s", strings.ToLower(fn), strings.ToLower(strings.ReplaceAll(ln, "-", "")), i, domain)
	prompt := fmt.Sprintf("Extract the sender's name, email address and company from this signature.\n\n"+
		"Thanks again for the quick turnaround.\n\n--\n%s %s\n%s, %s\n%s | +1 555 %04d",
		fn, ln, pick(rng, titles), company, email, 1000+i)
	return prompt, map[string]any{"name": fn + " " + ln, "email": email, "company": company}
}

func sentiment(rng *rand.Rand, i int) (string, map[string]any) {
	labels := []string{"positive", "negative", "neutral"}
	label := pick(rng, labels)
	conf := math.Round((0.6+0.39*rng.Float64())*100) / 100
	prompt := fmt.Sprintf("Classify the sentiment of this product review, with your confidence between 0 and 1.\n\n"+
		"Review R-%d (%d stars): %s", 7000+i, map[string]int{"positive": 5, "negative": 1, "neutral": 3}[label], pick(rng, reviews[label]))
	return prompt, map[string]any{"label": label, "confidence": conf}
}

func actions(rng *rand.Rand, i int) (string, map[string]any) {
	team := pick(rng, teams)
	var notes []string
	var items []any
	for j := range 1 + rng.IntN(3) {
		owner, task := pick(rng, first), pick(rng, tasks)
		due := fmt.Sprintf("2026-%02d-%02d", 1+(i+j)%12, 1+rng.IntN(28))
		notes = append(notes, fmt.Sprintf("- %s will %s by %s.", owner, task, due))
		items = append(items, map[string]any{"owner": owner, "task": task, "due": due})
	}
	prompt := fmt.Sprintf("List the action items in these meeting notes: who, what, and the due date.\n\n"+
		"Notes of the %s sync #%d\n\nWe went through the open issues.\n%s\nNext sync in two weeks.",
		team, 300+i, strings.Join(notes, "\n"))
	return prompt, map[string]any{"items": items}
}
