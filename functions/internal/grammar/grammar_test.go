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
