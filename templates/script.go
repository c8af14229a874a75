package templates

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
)

// script is the pages' one inline script, a small improvement on pages
// that work without it: deadlines in the reader's own time zone, "copy"
// buttons beside the links an organiser hands out, and a button that
// shows it was pressed (and no longer once "back" brings its page again
// from the back/forward cache). The Content-Security-Policy allows it by its hash.
const script = `(function(){` +
	`var d=document,l=d.documentElement.lang;` +
	`d.querySelectorAll("time[data-local]").forEach(function(t){` +
	`var v=new Date(t.getAttribute("datetime"));if(isNaN(v))return;` +
	`t.textContent=v.toLocaleString(l,{day:"numeric",month:"long",hour:"2-digit",minute:"2-digit",timeZoneName:"short"})});` +
	`d.querySelectorAll("button[data-copy]").forEach(function(b){` +
	`var i=d.getElementById(b.getAttribute("data-copy"));if(!i||!navigator.clipboard)return;b.hidden=false;` +
	`b.addEventListener("click",function(){navigator.clipboard.writeText(i.value).then(function(){b.textContent=b.getAttribute("data-done")})})});` +
	`d.querySelectorAll("form[method=post]").forEach(function(f){f.addEventListener("submit",function(){` +
	`var b=f.querySelector("button");if(b){b.setAttribute("aria-busy","true");b.classList.add("busy")}})});` +
	`addEventListener("pageshow",function(e){if(e.persisted)d.querySelectorAll("button.busy").forEach(function(b){` +
	`b.removeAttribute("aria-busy");b.classList.remove("busy")})});` +
	`d.querySelectorAll("button[data-fmt]").forEach(function(b){var i=b.form&&b.form.querySelector("input[name=amount]");if(!i)return;` +
	`var u=b.getAttribute("data-unit")||"",f=b.getAttribute("data-fmt"),s=function(){var n=parseInt(i.value,10);if(!(n>0)){b.textContent=f.replace(" %s","").replace("%s","").replace(/%%/g,"%");return}` +
	`var t=n.toLocaleString(l);t=u=="$"?(l=="en"?"$"+t:t+"\u00a0$"):u?t+"\u00a0"+u:t;` +
	`b.textContent=f.split("%s").join(t).replace(/%%/g,"%")};i.addEventListener("input",s);s()});` +
	`d.querySelectorAll("input[data-tz]").forEach(function(i){if(!i.value)try{i.value=Intl.DateTimeFormat().resolvedOptions().timeZone||""}catch(e){}})` +
	`})()`

// ScriptHash is the CSP source that allows script ('sha256-…').
var ScriptHash = func() string {
	h := sha256.Sum256([]byte(script))
	return "sha256-" + base64.StdEncoding.EncodeToString(h[:])
}()

// Script is the inline script, for the layout.
func Script() template.JS { return template.JS(script) }
