/* strtokline.c: reads "key=value" lines with fgets and splits each with
 * strtok, which writes a NUL over the '=' of the line its strcmp then
 * reads (mkvet does not model strtok; it must not compare the line as it
 * was).
 * Run: strtokline   (reads kv.txt) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	int nx = 10, steps = 1;
	char line[100];
	FILE *f = fopen("kv.txt", "r");
	if (f != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			char *key = strtok(line, "=");
			char *val = strtok(NULL, "\n");
			if (key == NULL || val == NULL)
				continue;
			if (strcmp(line, "nx") == 0)
				nx = atoi(val);
			else if (strcmp(line, "steps") == 0)
				steps = atoi(val);
		}
		fclose(f);
	}
	double s = 0;
	for (int t = 0; t < steps; t++)
		for (int i = 0; i < nx; i++)
			s += i;
	printf("%g\n", s);
	return 0;
}
