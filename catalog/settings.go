package catalog

import "strings"

// Setting is a setting of the program that uses catalog, named in an
// error's advice ("is the target right?"). catalog says what happened and
// which setting to look at; the program spells the setting its own way
// (agsh: --target) through Error.Text.
type Setting string

// The settings an error may name.
const (
	// SettingTarget is the deployment (a URL or a production name).
	SettingTarget Setting = "target"
	// SettingControlPlane is the control plane's URL.
	SettingControlPlane Setting = "control-plane"
	// SettingTeam is the team of a production name.
	SettingTeam Setting = "team"
	// SettingToken is where the program takes an explicit bearer token.
	SettingToken Setting = "token"
	// SettingTokenVariable is the environment variable of that token.
	SettingTokenVariable Setting = "token-variable"
	// SettingSession and SettingContinuationToken choose the binding.
	SettingSession           Setting = "session"
	SettingContinuationToken Setting = "continuation-token"
	// SettingProxy is the proxy setting (a proxy URL, its credentials).
	SettingProxy Setting = "proxy"
	// SettingCallTimeout is the time limit of a call's whole answer.
	SettingCallTimeout Setting = "call-timeout"
)

// neutralWords spell the settings in Error: words, not a program's flags.
var neutralWords = map[Setting]string{
	SettingTarget:            "the target",
	SettingControlPlane:      "the API URL",
	SettingTeam:              "the team",
	SettingToken:             "the bearer token",
	SettingTokenVariable:     "a bearer token",
	SettingSession:           "a session id",
	SettingContinuationToken: "a continuation token",
	SettingProxy:             "the proxy setting",
	SettingCallTimeout:       "the call's time limit",
}

const markerStart, markerEnd = "\x00setting:", "\x00"

// mark is how a message names a setting until it is spelled.
func (s Setting) mark() string { return markerStart + string(s) + markerEnd }

// spellSettings replaces each setting named in text by spell's word for
// it (nil, or "": the neutral words).
func spellSettings(text string, spell func(Setting) string) string {
	if !strings.Contains(text, markerStart) {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, markerStart)
		if i < 0 {
			break
		}
		rest := text[i+len(markerStart):]
		j := strings.Index(rest, markerEnd)
		if j < 0 {
			break
		}
		s := Setting(rest[:j])
		word := ""
		if spell != nil {
			word = spell(s)
		}
		if word == "" {
			word = neutralWords[s]
		}
		b.WriteString(text[:i])
		b.WriteString(word)
		text = rest[j+len(markerEnd):]
	}
	b.WriteString(text)
	return b.String()
}
