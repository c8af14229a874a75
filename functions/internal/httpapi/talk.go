package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/templates"
)

// Table talk over HTTP (issue 17): the API reads a page and posts, the
// talk page shows a page with its forms, and the game page a card of the
// newest messages. Who sees what is the service's (service/talk.go).

// TalkRequest is the body of POST /api/games/{id}/talk.
type TalkRequest struct {
	Text string `json:"text,omitempty"` // none when only MailEach is set
	// To is the invitation index of the one seat a private message is
	// for; absent (or −1) for the whole table.
	To *int `json:"to,omitempty"`
	// MailEach, when given, sets whether this seat is mailed each
	// message it may read (service/talkmail.go); a request with it and
	// no text posts nothing and answers TalkMailChoice.
	MailEach *bool `json:"mail_each,omitempty"`
}

// TalkMailChoice is the answer of POST /api/games/{id}/talk that only
// sets MailEach.
type TalkMailChoice struct {
	MailEach bool `json:"mail_each"`
}

// HideTalkRequest is the body of POST /api/games/{id}/talk/hide.
type HideTalkRequest struct {
	Key string `json:"key"`
	// Hidden is false to show a hidden message again; absent: hide.
	Hidden *bool `json:"hidden,omitempty"`
}

// TalkLine and TalkPage are the API's answers.
type (
	TalkLine = service.TalkLine
	TalkPage = service.TalkPageOf
)

// talkReader is the reader of a token as the talk knows it.
func talkReader(rd reader) service.TalkReader {
	v := rd.view()
	return service.TalkReader{Seat: v.Invite, Organiser: v.Role == "organiser"}
}

func (a *api) getTalk(w http.ResponseWriter, r *http.Request) {
	rd, rec, _, ok := a.loadGame(w, r, a.fail, bearer(r), anyReader...)
	if !ok {
		return
	}
	page, err := a.svc.ReadTalk(r.Context(), rec, talkReader(rd), r.URL.Query().Get("before"), 0)
	if err == nil && rd.claims.Purpose == linksign.PurposeSeat {
		var on bool
		on, err = a.svc.TalkMailOn(r.Context(), rec, rd.claims.Seat)
		page.MailEach = &on
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if page.Lines == nil {
		page.Lines = []TalkLine{}
	}
	writeJSON(w, http.StatusOK, page)
}

func (a *api) postTalk(w http.ResponseWriter, r *http.Request) {
	var req TalkRequest
	rd, ok := a.seatRequest(w, r, &req)
	if !ok {
		return
	}
	to := store.TalkPublic
	if req.To != nil {
		to = *req.To
	}
	if req.MailEach != nil {
		if err := a.setTalkMail(r, rd, *req.MailEach); err != nil {
			a.fail(w, r, err)
			return
		}
		if strings.TrimSpace(req.Text) == "" {
			writeJSON(w, http.StatusOK, TalkMailChoice{MailEach: *req.MailEach})
			return
		}
	}
	line, err := a.talkFrom(r, rd, to, req.Text)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, line)
}

// setTalkMail sets whether the seat of rd is mailed each message of the
// game in the path.
func (a *api) setTalkMail(r *http.Request, rd reader, on bool) error {
	rec, _, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := rec.HasSeat(rd.claims); err != nil {
		return err
	}
	return a.svc.SetTalkMail(r.Context(), rec, rd.claims.Seat, on)
}

// talkFrom posts text from the seat of rd to the game in the path.
func (a *api) talkFrom(r *http.Request, rd reader, to int, text string) (TalkLine, error) {
	rec, _, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		return TalkLine{}, err
	}
	if err := rec.HasSeat(rd.claims); err != nil {
		return TalkLine{}, err
	}
	return a.svc.PostTalk(r.Context(), rec, rd.claims.Seat, to, text)
}

func (a *api) hideTalk(w http.ResponseWriter, r *http.Request) {
	var req HideTalkRequest
	_, err := a.authorize(r, bearer(r), linksign.PurposeOrganiser)
	if err == nil {
		err = decodeJSON(r, &req)
	}
	hidden := req.Hidden == nil || *req.Hidden
	if err == nil {
		err = a.svc.HideTalk(r.Context(), r.PathValue("id"), req.Key, hidden)
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"key": req.Key, "hidden": hidden})
}

// talkData is the talk page.
type talkData struct {
	gameHead
	Talk          views.Talk
	Notice, Error string
	// A seat's reader is mailed each message or not: the form's button
	// (EachButton, "" for other readers) sends EachValue to turn it the
	// other way.
	EachNote, EachButton, EachValue string
}

func (a *api) talkPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	notice := ""
	if q.Get("sent") != "" {
		notice = templates.T(lang(r), "talk_sent")
	}
	a.renderTalk(w, r, q.Get("t"), http.StatusOK, notice, "", "", store.TalkPublic)
}

// renderTalk draws the talk page for the reader of token; after a
// refusal errMsg says why, and text and to refill the form.
func (a *api) renderTalk(w http.ResponseWriter, r *http.Request, token string, status int, notice, errMsg, text string, to int) {
	h, rd, rec, _, ok := a.loadGamePage(w, r, token, "talk", anyReader...)
	if !ok {
		return
	}
	l := lang(r)
	before := r.URL.Query().Get("before")
	page, err := a.svc.ReadTalk(r.Context(), rec, talkReader(rd), before, 0)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	link := func(path string, query ...string) string { return pageLink(path, token, l, query...) }
	d := talkData{gameHead: h, Notice: notice, Error: errMsg}
	d.Title, d.Game = templates.T(l, "talk")+" · "+rec.Title(l, d.GameName), true
	d.Talk = views.TalkOf(views.TalkRequest{Lang: l, Rec: rec, Reader: rd.view(), Page: page, Link: link, Before: before, Text: text, To: to})
	if rd.claims.Purpose == linksign.PurposeSeat {
		on, err := a.svc.TalkMailOn(r.Context(), rec, rd.claims.Seat)
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		d.EachValue = "1"
		d.EachNote = templates.Pick(l, "Новые сообщения приходят вам в следующем письме о ходе или в сводке.",
			"New messages come to you in your next turn mail or digest.")
		d.EachButton = templates.Pick(l, "Присылать каждое сообщение отдельным письмом", "Mail me each message")
		if on {
			d.EachValue = "0"
			d.EachNote = templates.Pick(l, "Каждое новое сообщение приходит вам отдельным письмом.", "Each new message is mailed to you on its own.")
			d.EachButton = templates.Pick(l, "Не присылать каждое, только в письмах о ходах", "Stop: only in my turn mails")
		}
	}
	if r.Method != http.MethodGet {
		d.langLinks("/g/"+rec.ID+"/talk", token)
	}
	a.render(w, r, status, "talk.html", d)
}

// talkCard is the game page's card of the newest talk for rd; nil when
// the service keeps no talk, or (logged) when it cannot be read: the
// game page goes without it.
func (a *api) talkCard(r *http.Request, rec *service.Record, rd reader, token string) *views.Talk {
	if !a.svc.TalkEnabled() {
		return nil
	}
	page, err := a.svc.ReadTalk(r.Context(), rec, talkReader(rd), "", 0)
	if err != nil {
		a.log.ErrorContext(r.Context(), "table talk", "game", rec.ID, "err", err.Error())
		return nil
	}
	l := lang(r)
	t := views.TalkCard(views.TalkRequest{Lang: l, Rec: rec, Reader: rd.view(), Page: page, To: store.TalkPublic,
		Link: func(path string, query ...string) string { return pageLink(path, token, l, query...) }})
	return &t
}

// postTalkPage takes the talk form: the message goes, and the talk page
// shows it (a GET, so reloading posts nothing twice).
func (a *api) postTalkPage(w http.ResponseWriter, r *http.Request) {
	rd, token, ok := a.postedReader(w, r, linksign.PurposeSeat)
	if !ok {
		return
	}
	if each := r.PostFormValue("mail_each"); each != "" {
		// The choice's own form: it posts no message.
		if err := a.setTalkMail(r, rd, each == "1"); err != nil {
			a.pageError(w, r, err)
			return
		}
		http.Redirect(w, r, pageLink("/g/"+r.PathValue("id")+"/talk", token, lang(r)), http.StatusSeeOther)
		return
	}
	text := r.PostFormValue("text")
	to, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("to")))
	if r.PostFormValue("to") == "" {
		to, err = store.TalkPublic, nil
	}
	if err == nil {
		_, err = a.talkFrom(r, rd, to, text)
	} else {
		err = service.Fail(service.CodeInvalid, err)
	}
	if err != nil {
		e, status := a.classify(r, err)
		if status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusNotFound {
			a.pageError(w, r, err)
			return
		}
		retryAfter(w, e)
		a.renderTalk(w, r, token, status, "", e.Message(lang(r)), text, to)
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id")+"/talk", token, lang(r), "sent", "1"), http.StatusSeeOther)
}

// hideTalkPage takes the organiser's hide (or show) button.
func (a *api) hideTalkPage(w http.ResponseWriter, r *http.Request) {
	_, token, ok := a.postedReader(w, r, linksign.PurposeOrganiser)
	if !ok {
		return
	}
	if err := a.svc.HideTalk(r.Context(), r.PathValue("id"), r.PostFormValue("key"), r.PostFormValue("hidden") != "0"); err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id")+"/talk", token, lang(r)), http.StatusSeeOther)
}
