/*
 * bcryptprimitives.dll for wine 8, which lacks it: Go 1.24 and later
 * refuse to start without its ProcessPrng. This one fills the buffer from
 * advapi32's SystemFunction036 (RtlGenRandom), which wine has. Built by
 * internal/winetest with x86_64-w64-mingw32-gcc.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n)
{
	while (n > 0) {
		ULONG chunk = n > 0x40000000 ? 0x40000000 : (ULONG)n;

		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		n -= chunk;
	}
	return TRUE;
}
