package org.ompprof.sampler.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins {@link Wire} to the C compiler's view of {@code ompprof_wire.h}: a C program generated
 * from Wire's constants prints every offsetof, sizeof and enumerator, and each must match. A
 * second check parses the header so that a new C field or constant without a Java mirror fails.
 */
class WireLayoutTest {
    static final Path HEADER = Path.of("..", "native-sigprof", "include", "ompprof_wire.h")
            .toAbsolutePath()
            .normalize();
    static final Path WORK = Path.of("target", "wire-layout").toAbsolutePath();

    static Map<String, Long> expected;
    static Map<String, Long> actual;

    @BeforeAll
    static void compileAndRun() throws Exception {
        expected = javaConstants();
        Files.createDirectories(WORK);
        Path source = WORK.resolve("layout.c");
        Files.writeString(source, cProgram(expected));
        Path binary = WORK.resolve("layout");
        run(List.of(
                "/usr/bin/clang-19",
                "-std=c11",
                "-Wall",
                "-Werror",
                "-I",
                HEADER.getParent().toString(),
                "-o",
                binary.toString(),
                source.toString()));
        actual = parse(run(List.of(binary.toString())));
    }

    @Test
    void everyJavaConstantMatchesTheCompiler() {
        List<String> wrong = new ArrayList<>();
        expected.forEach((name, value) -> {
            Long c = actual.get(name);
            if (!value.equals(c)) wrong.add(name + ": java " + value + ", C " + c);
        });
        assertTrue(wrong.isEmpty(), "Wire.java differs from ompprof_wire.h:\n" + String.join("\n", wrong));
        assertEquals(expected.size(), actual.size());
    }

    @Test
    void everyCConstantHasAJavaMirror() throws IOException {
        String header = stripComments(Files.readString(HEADER));
        Set<String> missing = new TreeSet<>();
        Matcher m = Pattern.compile("(?:#define\\s+OMPPROF_(\\w+)\\s)|(?:\\bOMPPROF_(\\w+)\\s*=)")
                .matcher(header);
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            if (!name.equals("WIRE_H")
                    && !expected.containsKey(name)
                    && !stringMacros(header).containsKey(name)) missing.add("OMPPROF_" + name);
        }
        assertTrue(missing.isEmpty(), "constants without a mirror in Wire.java: " + missing);
    }

    /** String macros (a symbol's name) are compared as text: the printing program only prints numbers. */
    @Test
    void everyCStringConstantMatchesItsJavaMirror() throws Exception {
        Map<String, String> macros = stringMacros(stripComments(Files.readString(HEADER)));
        assertTrue(!macros.isEmpty());
        for (Map.Entry<String, String> e : macros.entrySet()) {
            Field f = Wire.class.getField(e.getKey());
            assertEquals(e.getValue(), f.get(null), "OMPPROF_" + e.getKey());
        }
    }

    private static Map<String, String> stringMacros(String header) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("#define\\s+OMPPROF_(\\w+)\\s+\"([^\"]*)\"").matcher(header);
        while (m.find()) out.put(m.group(1), m.group(2));
        return out;
    }

    @Test
    void everyCStructFieldHasAJavaMirror() throws IOException {
        String header = stripComments(Files.readString(HEADER));
        Map<String, String> javaClassOfStruct = new LinkedHashMap<>();
        for (Class<?> c : Wire.class.getDeclaredClasses()) javaClassOfStruct.put(cStruct(c), c.getSimpleName());
        Matcher m =
                Pattern.compile("struct\\s+(ompprof_\\w+)\\s*\\{([^}]*)\\};").matcher(header);
        Set<String> missing = new TreeSet<>();
        int structs = 0;
        while (m.find()) {
            structs++;
            String javaClass = javaClassOfStruct.get(m.group(1));
            if (javaClass == null) {
                missing.add("struct " + m.group(1));
                continue;
            }
            for (String field : fieldNames(m.group(2))) {
                if (field.startsWith("pad")) continue;
                if (!expected.containsKey(javaClass + "." + field.toUpperCase())) missing.add(m.group(1) + "." + field);
            }
        }
        assertEquals(javaClassOfStruct.size(), structs, "every struct in the header has a class in Wire and back");
        assertTrue(missing.isEmpty(), "fields without a mirror in Wire.java: " + missing);
    }

    /** Name -> value of every constant in Wire: top level as "NAME", nested as "Class.NAME". */
    static Map<String, Long> javaConstants() throws IllegalAccessException {
        Map<String, Long> out = new LinkedHashMap<>();
        addConstants(Wire.class, "", out);
        for (Class<?> c : Wire.class.getDeclaredClasses()) addConstants(c, c.getSimpleName() + ".", out);
        return out;
    }

    private static void addConstants(Class<?> c, String prefix, Map<String, Long> out) throws IllegalAccessException {
        for (Field f : c.getDeclaredFields()) {
            int mod = f.getModifiers();
            if (!Modifier.isPublic(mod) || !Modifier.isStatic(mod) || !Modifier.isFinal(mod)) continue;
            if (f.getType() == int.class) out.put(prefix + f.getName(), (long) f.getInt(null));
            else if (f.getType() == long.class) out.put(prefix + f.getName(), f.getLong(null));
        }
    }

    private static String cStruct(Class<?> c) {
        try {
            return (String) c.getField("C_STRUCT").get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(c + " lacks C_STRUCT", e);
        }
    }

    static String cProgram(Map<String, Long> constants) {
        StringBuilder s = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include \"ompprof_wire.h\"\n"
                + "#define P(name, expr) printf(\"%s %llu\\n\", name, (unsigned long long)(expr))\n"
                + "int main(void) {\n");
        for (String name : constants.keySet()) {
            s.append("  P(\"")
                    .append(name)
                    .append("\", ")
                    .append(cExpression(name))
                    .append(");\n");
        }
        return s.append("  return 0;\n}\n").toString();
    }

    private static String cExpression(String name) {
        int dot = name.indexOf('.');
        if (dot < 0) return "OMPPROF_" + name;
        String struct = "struct " + structOf(name.substring(0, dot));
        String field = name.substring(dot + 1);
        if (field.equals("SIZEOF")) return "sizeof(" + struct + ")";
        if (field.startsWith("SIZEOF_"))
            return "sizeof(((" + struct + " *)0)->" + field.substring(7).toLowerCase() + ")";
        return "offsetof(" + struct + ", " + field.toLowerCase() + ")";
    }

    private static String structOf(String javaClass) {
        for (Class<?> c : Wire.class.getDeclaredClasses()) {
            if (c.getSimpleName().equals(javaClass)) return cStruct(c);
        }
        throw new AssertionError(javaClass);
    }

    private static List<String> fieldNames(String body) {
        List<String> names = new ArrayList<>();
        for (String decl : body.split(";")) {
            decl = decl.replaceAll("\\[[^\\]]*\\]", "").trim();
            if (decl.isEmpty()) continue;
            String[] parts = decl.split(",");
            String[] first = parts[0].trim().split("\\s+");
            names.add(first[first.length - 1]);
            for (int i = 1; i < parts.length; i++) names.add(parts[i].trim());
        }
        return names;
    }

    private static String stripComments(String c) {
        return c.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
    }

    private static Map<String, Long> parse(String output) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            if (line.isBlank()) continue;
            String[] kv = line.split(" ");
            out.put(kv[0], Long.parseUnsignedLong(kv[1]));
        }
        return out;
    }

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + cmd);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " failed:\n" + output);
        return output;
    }
}
