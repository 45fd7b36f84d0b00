"""Drops a WebAssembly module's custom sections that nothing reads at run time, in place.

    python3 scripts/wasm_strip.py MODULE.wasm...

Two sections are dropped: `name` (function names, for debuggers' stack traces) and
`__wasm_bindgen_unstable` (wasm-bindgen's metadata: a dependency of `vampirc-uci`, `chrono`,
links `js-sys`, and with no wasm-bindgen step to consume it the section stays). Together they
are about 300 KB of each module (docs/web.md, "Size, load time and speed"). Code, data and
exports are left as they are: the module behaves the same. The other custom sections
(`producers`, `target_features`) are kept; they are a few bytes.
"""

import sys

DROP = {b"name", b"__wasm_bindgen_unstable"}


def leb128(data, at):
    """The unsigned LEB128 number at `at`, and the offset after it."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def strip(data):
    """`data` without the custom sections of DROP; raises ValueError if it is no module."""
    if data[:8] != b"\0asm\1\0\0\0":
        raise ValueError("not a WebAssembly module (version 1)")
    out = bytearray(data[:8])
    at = 8
    while at < len(data):
        start = at
        kind = data[at]
        size, body = leb128(data, at + 1)
        end = body + size
        if end > len(data):
            raise ValueError(f"section at byte {start} runs past the end")
        if kind == 0:
            length, name_at = leb128(data, body)
            if bytes(data[name_at:name_at + length]) in DROP:
                at = end
                continue
        out += data[start:end]
        at = end
    return bytes(out)


def main():
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            data = f.read()
        try:
            stripped = strip(data)
        except (ValueError, IndexError) as e:
            sys.exit(f"{path}: {e}")
        with open(path, "wb") as f:
            f.write(stripped)
        print(f"{path}: {len(data)} -> {len(stripped)} bytes")


if __name__ == "__main__":
    main()
