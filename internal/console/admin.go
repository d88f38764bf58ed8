package console

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom"
	"github.com/stockroom/stockroom/internal/service"
)

// The administration screen does what the admin commands do (clients,
// warehouses, reason codes), which the API does not offer; so it calls the
// service's admin operations directly, for the signed-in client, and the
// service admits only an administrator to each of them.

type adminData struct {
	Clients    []*stockroom.Client
	Warehouses []stockroom.Warehouse
	Reasons    []stockroom.ReasonCode
	// Secret is a client's new secret, shown once, never in an address.
	SecretFor, Secret string
}

// adminHandler is an administration route's handler, given its context
// and the signed-in client.
type adminHandler func(ctx context.Context, p *stockroom.Principal, r *http.Request) (adminData, string, error)

// admin runs an administration route and renders the screen with what the
// route did (a flash) or why it was refused; the screen's lists are read
// for the signed-in client too, so that a client the service does not
// admit sees only the refusal.
func (h *Handler) admin(do adminHandler) sessionHandler {
	return func(w http.ResponseWriter, r *http.Request, s *session) {
		ctx := r.Context()
		p, err := h.svc.Authenticate(ctx, s.token)
		if err != nil {
			h.toSignIn(w, r)
			return
		}
		v := &view{page: "admin", Title: "Administration", Nav: "admin"}
		a := answer{Status: http.StatusOK}
		var d adminData
		if do != nil {
			d, v.Flash, err = do(ctx, p, r)
			if err != nil {
				a, v.Flash, d.Secret = refusalOf(err), "", ""
			}
		}
		if err := h.adminLists(ctx, p, &d); err != nil {
			h.screen(w, r, s, refusalOf(err), v)
			return
		}
		v.Data = d
		h.screen(w, r, s, a, v)
	}
}

// adminLists reads the screen's clients, warehouses and reason codes.
func (h *Handler) adminLists(ctx context.Context, p *stockroom.Principal, d *adminData) error {
	var err error
	if d.Clients, err = h.svc.ListClients(ctx, p); err != nil {
		return err
	}
	for wh, err := range h.svc.AllWarehouses(ctx, p) {
		if err != nil {
			return err
		}
		d.Warehouses = append(d.Warehouses, wh)
	}
	for rc, err := range h.svc.AllReasonCodes(ctx, p) {
		if err != nil {
			return err
		}
		d.Reasons = append(d.Reasons, rc)
	}
	return nil
}

// refusalOf is a service error as the API would answer it: its status and
// message (internal errors never shown).
func refusalOf(err error) answer {
	code := stockroom.ErrorCode(err)
	status := map[string]int{stockroom.EINVALID: 400, stockroom.EFORBIDDEN: 403, stockroom.ENOTFOUND: 404, stockroom.ECONFLICT: 409}[code]
	msg := stockroom.ErrorMessage(err)
	if status == 0 {
		status, msg = http.StatusInternalServerError, stockroom.MsgInternal
	}
	var e *stockroom.Error
	if errors.As(err, &e) {
		// The fields at fault, named in the sentence: the screen's forms
		// are small.
		for _, k := range slices.Sorted(maps.Keys(e.Details)) {
			msg += " " + k + ": " + strings.Join(e.Details[k], "; ") + "."
		}
	}
	return answer{Status: status, Err: &stockroom.ErrorBody{Message: msg}}
}

func (h *Handler) adminRoutes() []route {
	return []route{
		{"GET " + Prefix + "/admin", h.admin(nil)},
		{"POST " + Prefix + "/admin/clients", h.admin(h.addClient)},
		{"POST " + Prefix + "/admin/clients/{id}", h.updateClient},
		{"POST " + Prefix + "/admin/warehouses", h.admin(h.addWarehouse)},
		{"POST " + Prefix + "/admin/reasons", h.admin(h.addReason)},
	}
}

func (h *Handler) updateClient(w http.ResponseWriter, r *http.Request, s *session) {
	h.admin(func(ctx context.Context, p *stockroom.Principal, r *http.Request) (adminData, string, error) {
		id := r.PathValue("id")
		switch r.PostFormValue("do") {
		case "disable", "enable":
			on := r.PostFormValue("do") == "enable"
			return adminData{}, "Client " + id + " " + r.PostFormValue("do") + "d.", h.svc.SetClientEnabled(ctx, p, id, on)
		case "rotate":
			secret, err := h.svc.RotateSecret(ctx, p, id)
			return adminData{SecretFor: id, Secret: secret}, "New secret for " + id + "; its tokens are revoked.", err
		}
		var ch stockroom.ClientChange
		perms, err := stockroom.ParsePermissions(r.PostFormValue("permissions"))
		if err != nil {
			return adminData{}, "", stockroom.Errorf(stockroom.EINVALID, "permissions: %v", err)
		}
		ch.Permissions = perms
		if ch.Scope, ch.Owners, err = scopesOf(r); err != nil {
			return adminData{}, "", err
		}
		_, err = h.svc.UpdateClient(ctx, p, id, ch)
		return adminData{}, "Client " + id + " updated.", err
	})(w, r, s)
}

// scopesOf reads a client form's warehouses and owners as the admin
// commands read them.
func scopesOf(r *http.Request) (*stockroom.Scope, *stockroom.Scope, error) {
	wh, err := stockroom.ParseScope(r.PostFormValue("warehouses"))
	if err != nil {
		return nil, nil, stockroom.Errorf(stockroom.EINVALID, "warehouses: %v", err)
	}
	owners, err := stockroom.ParseOwners(r.PostFormValue("owners"))
	if err != nil {
		return nil, nil, stockroom.Errorf(stockroom.EINVALID, "owners: %v", err)
	}
	return &wh, &owners, nil
}

func (h *Handler) addClient(ctx context.Context, p *stockroom.Principal, r *http.Request) (adminData, string, error) {
	perms, err := stockroom.ParsePermissions(r.PostFormValue("permissions"))
	if err != nil {
		return adminData{}, "", stockroom.Errorf(stockroom.EINVALID, "permissions: %v", err)
	}
	wh, owners, err := scopesOf(r)
	if err != nil {
		return adminData{}, "", err
	}
	reports, err := parseReports(r.PostFormValue("reports"))
	if err != nil {
		return adminData{}, "", stockroom.Errorf(stockroom.EINVALID, "reports: %v", err)
	}
	id, secret, err := h.svc.AddClient(ctx, p, service.NewClient{Name: strings.TrimSpace(r.PostFormValue("name")),
		Permissions: perms, Scope: *wh, Owners: owners, Reports: reports, ReadOnly: r.PostFormValue("readOnly") == "on"})
	return adminData{SecretFor: id, Secret: secret}, "Client " + id + " created.", err
}

// parseReports reads the reports a new client may run: none when empty,
// as for `client add` without --reports.
func parseReports(s string) (stockroom.Scope, error) {
	if strings.TrimSpace(s) == "" {
		return stockroom.Scope{}, nil
	}
	return stockroom.ParseReports(s)
}

func (h *Handler) addWarehouse(ctx context.Context, p *stockroom.Principal, r *http.Request) (adminData, string, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(r.PostFormValue("wid")), 10, 64)
	if err != nil {
		return adminData{}, "", stockroom.Errorf(stockroom.EINVALID, "The warehouse number must be a whole number.")
	}
	return adminData{}, "Warehouse " + strconv.FormatInt(id, 10) + " added.",
		h.svc.AddWarehouse(ctx, p, stockroom.Warehouse{ID: id, Name: strings.TrimSpace(r.PostFormValue("name")), Active: true})
}

func (h *Handler) addReason(ctx context.Context, p *stockroom.Principal, r *http.Request) (adminData, string, error) {
	code, err := strconv.ParseInt(strings.TrimSpace(r.PostFormValue("code")), 10, 64)
	if err != nil {
		return adminData{}, "", stockroom.Errorf(stockroom.EINVALID, "The reason code must be a whole number.")
	}
	return adminData{}, "Reason code " + strconv.FormatInt(code, 10) + " added.", h.svc.AddReasonCode(ctx, p, stockroom.ReasonCode{
		Code: code, Description: strings.TrimSpace(r.PostFormValue("description")), Direction: stockroom.Direction(r.PostFormValue("direction"))})
}
