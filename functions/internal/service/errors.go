package service

import (
	"errors"
	"fmt"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// Code is the kind of a failure, the one thing callers switch on. The HTTP
// layer maps each code to one status (httpapi.statusOf).
type Code string

const (
	CodeInvalid      Code = "invalid"        // malformed or out-of-range input
	CodeUnauthorized Code = "unauthorized"   // missing, forged or expired token
	CodeForbidden    Code = "forbidden"      // a valid token for something else
	CodeNotFound     Code = "not_found"      // no such game
	CodeConflict     Code = "conflict"       // someone else moved first: reload and retry
	CodeNotYourTurn  Code = "not_your_turn"  // engine.ErrNotYourTurn
	CodeIllegal      Code = "illegal_action" // engine.ErrIllegalAction
	CodeGameOver     Code = "game_over"      // engine.ErrGameOver
	CodeWrongStatus  Code = "wrong_status"   // e.g. acting before the game started
	CodeTooLarge     Code = "too_large"      // request body over the limit
	CodeTooMany      Code = "too_many"       // over a limit of games made; Error.RetryAfter says when to try again
	CodeItemTooLarge Code = "item_too_large" // what a change would store passes the store's item limit (store.ErrTooLarge)
	CodeInternal     Code = "internal"       // our fault; the cause is logged, never shown
)

const (
	CodeMediaType Code = "unsupported_media_type" // a body not in the form the route reads
	CodeKeyReused Code = "key_reused"             // an idempotency key sent again with another action
)

// Error is a failure with a code, a message a player can read in Russian
// and English, and the cause for the log.
type Error struct {
	Code  Code
	RU    string
	EN    string
	Cause error
	// RetryAfter, with CodeTooMany, is how long until a retry can succeed.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.EN, e.Cause)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.EN)
}

func (e *Error) Unwrap() error { return e.Cause }

// Message is the text for lang ("ru" or "en").
func (e *Error) Message(lang string) string {
	if lang == "ru" {
		return e.RU
	}
	return e.EN
}

// errorf makes an Error with a fixed bilingual message.
func newError(code Code, ru, en string, cause error) *Error {
	return &Error{Code: code, RU: ru, EN: en, Cause: cause}
}

func invalid(ru, en string) *Error { return newError(CodeInvalid, ru, en, nil) }

// messages are the standard texts of each code.
var messages = map[Code][2]string{
	CodeInvalid:      {"Неверный запрос.", "Invalid request."},
	CodeUnauthorized: {"Ссылка недействительна или устарела.", "This link is invalid or has expired."},
	CodeForbidden:    {"Эта ссылка не даёт права на это действие.", "This link does not allow that."},
	CodeNotFound:     {"Такой игры нет.", "No such game."},
	CodeConflict:     {"Кто-то сделал ход раньше вас. Обновите страницу и попробуйте снова.", "Someone moved first. Reload and try again."},
	CodeNotYourTurn:  {"Сейчас не ваш ход.", "It is not your turn."},
	CodeIllegal:      {"Этот ход сейчас невозможен.", "That move is not allowed now."},
	CodeGameOver:     {"Игра окончена.", "The game is over."},
	CodeWrongStatus:  {"Сейчас это действие недоступно.", "That is not possible at this stage of the game."},
	CodeTooLarge:     {"Запрос слишком велик.", "The request is too large."},
	CodeTooMany:      {"Слишком много запросов. Попробуйте позже.", "Too many requests. Try again later."},
	CodeInternal:     {"Внутренняя ошибка. Мы уже разбираемся.", "Internal error. We are looking into it."},
	CodeItemTooLarge: {"Игра стала слишком большой для хранилища (предел записи — 400 КБ), и это изменение не сохранено. Сообщите организатору игры.",
		"This game has grown too large to store (an item may hold 400 KB), so this change was not saved. Tell the game's organiser."},
	CodeMediaType: {"Тело запроса должно быть JSON в UTF-8 (Content-Type: application/json).",
		"The body must be JSON in UTF-8 (Content-Type: application/json)."},
	CodeKeyReused: {"Этот ключ запроса (key) уже использован для другого хода. Для нового хода нужен новый ключ.",
		"This idempotency key was already used for a different move. A new move needs a new key."},
}

// Fail makes an Error of code with its standard message.
func Fail(code Code, cause error) *Error {
	m := messages[code]
	return newError(code, m[0], m[1], cause)
}

// AsError classifies any error: typed errors of the engine, the store and
// the token package get their codes; anything else is internal.
func AsError(err error) *Error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case errors.Is(err, engine.ErrNotYourTurn):
		return Fail(CodeNotYourTurn, err)
	case errors.Is(err, engine.ErrIllegalAction):
		return Fail(CodeIllegal, err)
	case errors.Is(err, engine.ErrGameOver):
		return Fail(CodeGameOver, err)
	case errors.Is(err, engine.ErrBadOptions):
		return newError(CodeInvalid, "Неверные параметры игры.", "Invalid game options.", err)
	case errors.Is(err, store.ErrNotFound):
		return Fail(CodeNotFound, err)
	case errors.Is(err, store.ErrConflict):
		return Fail(CodeConflict, err)
	case errors.Is(err, store.ErrTooLarge):
		// The store refused the write whole: nothing of the change was
		// kept (a chunk written before it is one no game names).
		return Fail(CodeItemTooLarge, err)
	case errors.Is(err, linksign.ErrWrongGame), errors.Is(err, linksign.ErrWrongSeat), errors.Is(err, linksign.ErrWrongPurpose):
		return Fail(CodeForbidden, err)
	case errors.Is(err, linksign.ErrMalformed), errors.Is(err, linksign.ErrBadSignature), errors.Is(err, linksign.ErrUnknownKey),
		errors.Is(err, linksign.ErrExpired), errors.Is(err, linksign.ErrStaleVersion):
		return Fail(CodeUnauthorized, err)
	}
	return Fail(CodeInternal, err)
}
