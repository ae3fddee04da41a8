/* placeholder until the CLI lands in this session */
#include <stdio.h>
int main(void) { puts("chargesim " CHARGESIM_VERSION); return 0; }
