/* A stand-in for Windows' bcryptprimitives.dll, for Wine releases that lack it (Debian's Wine 8.0).
 *
 * Rust's standard library (1.78 on) imports ProcessPrng from bcryptprimitives.dll, which every
 * Windows since 10 has: a Rust program built for Windows does not start under a Wine without it.
 * tests/wine.rs compiles this file into the test's own Wine prefix only when the prefix has no
 * bcryptprimitives.dll; it is never shipped, and the engine itself does not change.
 *
 * ProcessPrng fills the buffer from RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!RtlGenRandom(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
