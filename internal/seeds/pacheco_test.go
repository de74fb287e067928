package seeds

import "testing"

func TestPachecoPred(t *testing.T) {
	pred := PachecoPred(t)
	if len(pred) != 5 || pred[32][3] != "19.8" {
		t.Errorf("table %v", pred)
	}
}
