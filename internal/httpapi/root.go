package httpapi

import "net/http"

// rootBody is the answer of GET /.
type rootBody struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Docs    string `json:"docs"`
	OpenAPI string `json:"openapi"`
	API     string `json:"api"`
}

// handleRoot serves GET /: someone who typed the server's address into a
// browser, or a program probing it, learns where the documentation and the
// API are instead of meeting a 404.
func (s *Server) handleRoot(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, rootBody{
		Name:    "Stockroom",
		Message: "Stockroom's inventory API. Its reference is at /docs; the API itself is under /api/v1.",
		Docs:    "/docs",
		OpenAPI: "/api/v1/openapi.json",
		API:     "/api/v1",
	})
	return nil
}
