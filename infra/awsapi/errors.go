package awsapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// APIError is an error answer of an AWS service. Code is the service's
// error code ("ConditionalCheckFailedException"), or the status's text
// ("Bad Request") if the answer names none.
type APIError struct {
	Op, Code, Message, RequestID string
	Status                       int
	// body is the answer, for the fields some errors carry beside their
	// code (DynamoDB's ConditionalCheckFailedException: the item); never
	// part of the error's text.
	body []byte
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("%s: %s (HTTP %d)", e.Op, e.Code, e.Status)
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RequestID != "" {
		s += " [request " + e.RequestID + "]"
	}
	return s
}

// ErrorCode is the service's error code ("ConditionalCheckFailedException"),
// as the SDK's errors (smithy.APIError) name it.
func (e *APIError) ErrorCode() string { return e.Code }

// ErrorMessage is the service's message.
func (e *APIError) ErrorMessage() string { return e.Message }

// HTTPStatusCode is the answer's status.
func (e *APIError) HTTPStatusCode() int { return e.Status }

// Decode decodes the answer's JSON into v: the fields an error carries
// beside its code and message.
func (e *APIError) Decode(v any) error { return json.Unmarshal(e.body, v) }

// throttleCodes are the error codes the SDK's standard retryer takes for
// throttling (retry.DefaultThrottleErrorCodes).
var throttleCodes = map[string]bool{
	"Throttling": true, "ThrottlingException": true, "ThrottledException": true,
	"RequestThrottledException": true, "TooManyRequestsException": true,
	"ProvisionedThroughputExceededException": true, "TransactionInProgressException": true,
	"RequestLimitExceeded": true, "BandwidthLimitExceeded": true, "LimitExceededException": true,
	"RequestThrottled": true, "SlowDown": true, "PriorRequestNotComplete": true, "EC2ThrottledException": true,
}

// Throttling reports an answer that asks the caller to slow down.
func (e *APIError) Throttling() bool {
	return throttleCodes[e.Code] || e.Status == http.StatusTooManyRequests
}

// Retryable reports an answer worth another attempt, as the SDK's
// standard retryer judges: throttling, a request timeout, a server error
// (500, 502, 503, 504).
func (e *APIError) Retryable() bool {
	switch e.Status {
	case 500, 502, 503, 504:
		return true
	}
	return e.Throttling() || e.Code == "RequestTimeout" || e.Code == "RequestTimeoutException"
}

// answerError reads an AWS error answer: {"__type": "...#Code",
// "message": "..."}, the code possibly in X-Amzn-ErrorType instead (as
// REST-JSON services put it: "Code:http://...").
func answerError(op string, resp *http.Response, data []byte) *APIError {
	var e struct {
		Type     string `json:"__type"`
		Code     string `json:"code"`
		Message  string `json:"message"`
		Message2 string `json:"Message"`
	}
	_ = json.Unmarshal(data, &e)
	code := e.Type
	if code == "" {
		code = e.Code
	}
	if code == "" {
		code = resp.Header.Get("X-Amzn-ErrorType")
	}
	code, _, _ = strings.Cut(code, ":")
	if i := strings.LastIndexByte(code, '#'); i >= 0 {
		code = code[i+1:]
	}
	if code == "" {
		code = http.StatusText(resp.StatusCode)
	}
	msg := e.Message
	if msg == "" {
		msg = e.Message2
	}
	return &APIError{Op: op, Code: code, Message: msg, Status: resp.StatusCode, RequestID: resp.Header.Get("X-Amzn-RequestId"), body: data}
}
