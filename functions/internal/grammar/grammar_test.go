package grammar

import "testing"

// TestProblems: the sentences issue 10 found are caught, and their
// neutral rewordings pass.
func TestProblems(t *testing.T) {
	for _, tc := range []struct {
		text string
		bad  bool
	}{
		{"Вера принял приглашение.", true},
		{"Анна сделал ставку на торгах", true},
		{"Анна разорился", true},
		{"Ссылка-приглашение для Анна (личная):", true},
		{"Борис выкупает 5 Аптека у Вера за 100 $", true},
		{"Вера вынужден продать товар", true},
		{"Банк платит игроку Вера долг", true},
		{"Вера — приглашение принято.", false},
		{"Вера: ответ на торги получен", false},
		{"Вера разоряется", false},
		{"Сделка: Борис покупает 5 Аптека за 100, продаёт Вера", false},
		{"Капитал: 100 $ — Вера", false},
		{"Ходит Вера", false},
	} {
		p := Problems(tc.text, false, "Вера", "Анна", "Борис")
		if got := len(p) > 0; got != tc.bad {
			t.Errorf("%q: problems %q, want bad=%v", tc.text, p, tc.bad)
		}
	}
}

// TestAddressed (issue 27): a text said to its reader speaks to them —
// «вы» and its verbs in the second person, never their own name in the
// third — whoever they are.
func TestAddressed(t *testing.T) {
	for _, tc := range []struct {
		text, reader string
		bad          bool
	}{
		{"Вы в отъезде, пока не вернётся.", "", true},
		{"Вы в отъезде, пока не вернётесь.", "", false},
		{"Вы в отъезде до 2027-03-02 12:00 UTC.", "", false},
		{"Если не ответит, сыграет приказ.", "", false}, // no «вы»: not said to the reader
		{"Вы получаете акции, если ответите до срока.", "", false},
		{"Вы выходите из игры, когда ответите.", "", false},
		{"The organiser has handed Alice's seat to a bot.", "Alice", true},
		{"The organiser has handed your seat to a bot.", "Alice", false},
		{"По решению организатора за место теперь играет бот: Анна.", "Анна", true},
		{"По решению организатора за ваше место теперь играет бот.", "Анна", false},
	} {
		if got := Addressed(tc.text, tc.reader); (len(got) > 0) != tc.bad {
			t.Errorf("Addressed(%q, %q) = %v, want a problem: %v", tc.text, tc.reader, got, tc.bad)
		}
	}
}
