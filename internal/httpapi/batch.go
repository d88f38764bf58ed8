package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/jsonbody"
	"github.com/stockroom/stockroom/internal/jsontext"
	"github.com/stockroom/stockroom/internal/service"
)

// POST /Inventory/Batch (contract §15): many stock operations in one
// request, each read, judged and answered as its own endpoint would.

// batchStatus is the status each operation's endpoint answers a success
// with.
var batchStatus = map[stockroom.BatchOp]int{
	stockroom.OpReceive: http.StatusCreated,
	stockroom.OpIssue:   http.StatusOK,
	stockroom.OpMove:    http.StatusOK,
	stockroom.OpHold:    http.StatusOK,
	stockroom.OpRelease: http.StatusOK,
}

// handleBatch serves POST /Inventory/Batch.
func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) error {
	body, readErr := readJSON(r, false)
	req := readRequest(r, service.BatchRequest{}, stockroom.Validation{}, nil)
	req.Decode = func(in *service.BatchRequest) error { return decodeBatch(r, body, readErr, in) }
	req = withKey(r, req, answerOK)
	b, err := s.svc.Batch(r.Context(), principalFrom(r.Context()), req)
	if err != nil {
		return err
	}
	res := stockroom.BatchResult{Atomic: b.Atomic, Results: make([]stockroom.BatchAnswer, len(b.Each))}
	for i, o := range b.Each {
		res.Results[i] = s.batchAnswer(r, o)
	}
	s.respond(w, r, req.Key, answerOK, res)
	return nil
}

// batchAnswer is one operation's answer: its endpoint's success, the
// answer it was given before, or its endpoint's error object.
func (s *Server) batchAnswer(r *http.Request, o service.BatchOutcome) stockroom.BatchAnswer {
	if rep, ok := service.IsReplay(o.Err); ok {
		return stockroom.BatchAnswer{Status: rep.Answer.Status, Body: rep.Answer.Body}
	}
	if o.Err != nil {
		status, body := s.errorObject(r, o.Err)
		return stockroom.BatchAnswer{Status: status, Body: encodeJSON(body)}
	}
	switch res := o.Result.(type) {
	case stockroom.ReceiveResult:
		s.metrics.StockTransaction(string(res.Type))
	case stockroom.DrawResult:
		s.metrics.StockTransaction(string(res.Type))
	case stockroom.HoldResult:
		if res.TransactionID != nil {
			s.metrics.StockTransaction(string(res.Type))
		}
	}
	return stockroom.BatchAnswer{Status: o.Status, Body: encodeJSON(o.Result)}
}

// batchBody is what the body of a batch is read as first: whether it is
// atomic, and which operation each element is; each element is then read
// as its operation's body (opRequest).
type batchBody struct {
	_          struct{}    `resource:"Batch"`
	Atomic     *bool       `json:"atomic"`
	Operations []batchHead `json:"operations"`
}

// batchHead is the name of an element's operation.
type batchHead struct {
	Op string `json:"op"`
}

// decodeBatch reads a batch's body into in: its problems as a validation
// error (the operations' fields are their own requests', read when each is
// judged), or why it cannot be read.
func decodeBatch(r *http.Request, body []byte, readErr error, in *service.BatchRequest) error {
	if readErr != nil {
		return readErr
	}
	var b batchBody
	res, err := jsonbody.Decode(body, &b)
	if err != nil {
		return err
	}
	key, elems := batchElements(body)
	res.Unknown, res.UnknownOf = outside(key+"[", res.Unknown, res.UnknownOf)
	info := infoFrom(r.Context())
	v := &res.Problems
	if n := len(b.Operations); !v.Has("operations") && (n == 0 || n > stockroom.MaxBatchOperations) {
		v.Add("operations", "must hold 1 to "+strconv.Itoa(stockroom.MaxBatchOperations)+" operations")
	}
	in.Atomic = b.Atomic == nil || *b.Atomic
	for i, h := range b.Operations {
		at := "operations[" + strconv.Itoa(i) + "]"
		op := stockroom.BatchOp(h.Op)
		if _, ok := batchStatus[op]; !ok {
			if !v.Has(at + ".op") {
				v.Add(at+".op", "must be one of receive, issue, move, hold, release")
			}
			continue
		}
		if i < len(elems) {
			in.Ops = append(in.Ops, batchOp(info, op, elems[i], at+"."))
		}
	}
	return info.unknownFields(res, "")
}

// batchOp is the operation op of a batch, whose body is elem, at path at.
func batchOp(info *reqInfo, op stockroom.BatchOp, elem []byte, at string) service.BatchOp {
	o := service.BatchOp{Op: op, Status: batchStatus[op]}
	switch op {
	case stockroom.OpReceive:
		o.Receive = opRequest[stockroom.ReceiveRequest](info, elem, at)
	case stockroom.OpIssue:
		o.Issue = opRequest[stockroom.IssueRequest](info, elem, at)
	case stockroom.OpMove:
		o.Move = opRequest[stockroom.MoveRequest](info, elem, at)
	default:
		o.Hold = opRequest[stockroom.HoldRequest](info, elem, at)
	}
	return o
}

// opRequest is the request of an operation whose body is elem, read by the
// one decoder as its endpoint reads its body, once the service has checked
// its permission: "op" is no unknown field of it, and the unknown fields
// it has are named at their place in the batch.
func opRequest[T any](info *reqInfo, elem []byte, at string) service.Request[T] {
	return service.Request[T]{Decode: func(in *T) error {
		res, err := jsonbody.Decode(elem, in)
		if err != nil {
			return err
		}
		res.Unknown, res.UnknownOf = outside("", res.Unknown, res.UnknownOf)
		return info.unknownFields(res, at)
	}}
}

// outside keeps the unknown fields (and what each is not a field of) that
// are not under prefix, nor, for an empty prefix, "op".
func outside(prefix string, unknown, of []string) ([]string, []string) {
	var keptU, keptOf []string
	for i, path := range unknown {
		if prefix == "" && strings.EqualFold(path, "op") || prefix != "" && strings.HasPrefix(strings.ToLower(path), strings.ToLower(prefix)) {
			continue
		}
		keptU, keptOf = append(keptU, path), append(keptOf, of[i])
	}
	return keptU, keptOf
}

// batchElements finds, in body (a JSON object, valid), the member
// "operations" (in any letter case; the last, when given more than once)
// and the text of each element of its array. It returns the name as sent.
func batchElements(body []byte) (string, [][]byte) {
	var (
		key   string
		elems [][]byte
	)
	i := jsontext.SkipSpace(body, 0) + 1
	for {
		i = jsontext.SkipSpace(body, i)
		if body[i] == '}' {
			return key, elems
		}
		name, end, _ := jsontext.AppendString(nil, body, i)
		i = jsontext.SkipSpace(body, end) + 1 // :
		i = jsontext.SkipSpace(body, i)
		end = jsontext.ValueEnd(body, i)
		if strings.EqualFold(string(name), "operations") && body[i] == '[' {
			key, elems = string(name), arrayElements(body[i:end])
		}
		i = jsontext.SkipSpace(body, end)
		if body[i] == ',' {
			i++
		}
	}
}

// arrayElements returns the text of each element of the JSON array a.
func arrayElements(a []byte) [][]byte {
	var elems [][]byte
	i := jsontext.SkipSpace(a, 1)
	for a[i] != ']' {
		end := jsontext.ValueEnd(a, i)
		elems = append(elems, a[i:end])
		if i = jsontext.SkipSpace(a, end); a[i] == ',' {
			i = jsontext.SkipSpace(a, i+1)
		}
	}
	return elems
}
