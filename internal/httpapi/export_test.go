package httpapi

// LogBuffer is a log the server writes to while a black-box test reads it.
type LogBuffer = syncBuffer
