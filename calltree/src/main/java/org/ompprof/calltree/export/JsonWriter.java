package org.ompprof.calltree.export;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;

/**
 * Streams JSON: objects and arrays opened and closed in order, commas and string escapes
 * handled, nothing kept but the nesting. Enough for trace and profile exports of any size.
 */
final class JsonWriter {
    private final Writer out;
    private final boolean[] first = new boolean[64];
    private int depth;
    private boolean afterName;

    JsonWriter(Writer out) {
        this.out = out;
    }

    JsonWriter beginObject() throws IOException {
        open("{");
        first[++depth] = true;
        return this;
    }

    JsonWriter endObject() throws IOException {
        depth--;
        out.write('}');
        return this;
    }

    JsonWriter beginArray() throws IOException {
        open("[");
        first[++depth] = true;
        return this;
    }

    JsonWriter endArray() throws IOException {
        depth--;
        out.write(']');
        return this;
    }

    JsonWriter name(String name) throws IOException {
        separate();
        quote(name);
        out.write(':');
        afterName = true;
        return this;
    }

    JsonWriter value(String s) throws IOException {
        if (s == null) return raw("null");
        separate();
        quote(s);
        return this;
    }

    JsonWriter value(long v) throws IOException {
        return raw(Long.toString(v));
    }

    /** A microsecond time with nanosecond precision, as trace events take it. */
    JsonWriter micros(long ns) throws IOException {
        return raw(String.format(Locale.ROOT, "%d.%03d", ns / 1000, Math.abs(ns % 1000)));
    }

    JsonWriter value(boolean v) throws IOException {
        return raw(Boolean.toString(v));
    }

    JsonWriter field(String name, String v) throws IOException {
        return name(name).value(v);
    }

    JsonWriter field(String name, long v) throws IOException {
        return name(name).value(v);
    }

    private JsonWriter raw(String literal) throws IOException {
        separate();
        out.write(literal);
        return this;
    }

    private void open(String bracket) throws IOException {
        separate();
        out.write(bracket);
    }

    private void separate() throws IOException {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0 && !first[depth]) out.write(',');
        first[depth] = false;
    }

    private void quote(String s) throws IOException {
        out.write('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.write("\\\"");
                case '\\' -> out.write("\\\\");
                case '\n' -> out.write("\\n");
                case '\r' -> out.write("\\r");
                case '\t' -> out.write("\\t");
                default -> {
                    if (c < 0x20) out.write(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else out.write(c);
                }
            }
        }
        out.write('"');
    }
}
