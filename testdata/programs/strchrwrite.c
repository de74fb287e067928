/* strchrwrite.c: reads "key=value" lines with fgets, cuts each at its '='
 * by writing through the pointer strchr returned, and compares the key:
 * the write changes the line the comparison reads (mkvet does not follow
 * the pointer into the line; it must not compare the line as it was).
 * Run: strchrwrite   (reads kv.txt) */
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
			char *eq = strchr(line, '=');
			if (eq == NULL)
				continue;
			*eq = '\0';
			if (strcmp(line, "nx") == 0)
				nx = atoi(eq + 1);
			else if (strcmp(line, "steps") == 0)
				steps = atoi(eq + 1);
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
