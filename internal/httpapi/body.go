package httpapi

import (
	"errors"
	"net/http"

	"github.com/stockroom/stockroom"
)

func isTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

func tooLarge() error {
	return stockroom.Errorf(stockroom.ETOOLARGE, "The request body is larger than 1 MiB.")
}
