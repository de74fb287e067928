/* An else-if ladder on data, and an else that does more than test. */
struct obj {
	int type;
	double cen;
};

int ladder(struct obj *op, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (op[i].type == 0)
			s += 1;
		else if (op[i].type == 1)
			s += 2;
		else if (op[i].type == 2) {
			s += 3;
			s *= 2;
		} else if (op[i].cen > 0.5)
			s += 4;
		else
			s -= 1;
	}
	return s;
}

int nested(struct obj *op, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (op[i].type == 0) {
			s += 1;
		} else {
			s *= 3;
			if (op[i].cen > 0.5)
				s += 4;
		}
	}
	return s;
}

int main(void)
{
	struct obj o[10] = {{0, 0.0}};
	return ladder(o, 10) + nested(o, 10);
}
