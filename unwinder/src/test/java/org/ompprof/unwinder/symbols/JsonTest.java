package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void readsValues() {
        Object v = Json.parse(" {\"a\": [1, -2.5e1, true, false, null, \"x\\\"\\u00e9\\n\"], \"b\": {}, \"c\": []} ");
        assertEquals(
                Map.of("a", Arrays.asList(1L, -25.0, true, false, null, "x\"\u00e9\n"), "b", Map.of(), "c", List.of()),
                v);
    }

    @Test
    void rejoinsSurrogatePairs() {
        assertEquals("\uD83D\uDE00", Json.parse("\"\\ud83d\\ude00\""));
    }

    @Test
    void rejectsMalformedInputClearly() {
        for (String bad :
                List.of("", "{", "{\"a\" 1}", "[1,]", "\"abc", "\"\\q\"", "tru", "{} x", "-", "[1 2]", "\"\\u12\"")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
            assertEquals(true, e.getMessage().contains(" at "), e.getMessage());
        }
    }

    @Test
    void boundsNesting() {
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[".repeat(10_000) + "]".repeat(10_000)));
    }

    @Test
    void decodesSymbolizerAnswers() {
        LlvmAnswer a = LlvmAnswer.decode("{\"Address\":\"0x1140\",\"ModuleName\":\"/t\",\"Symbol\":[{\"Column\":14,"
                + "\"Discriminator\":0,\"FileName\":\"/t.c\",\"FunctionName\":\"leaf\",\"Line\":4},{\"Column\":12,"
                + "\"FileName\":\"/t.c\",\"FunctionName\":\"helper\",\"Line\":7}]}");
        assertEquals(
                new LlvmAnswer(
                        "/t",
                        0x1140,
                        List.of(new LlvmFrame("leaf", "/t.c", 4, 14), new LlvmFrame("helper", "/t.c", 7, 12)),
                        ""),
                a);
        LlvmAnswer err = LlvmAnswer.decode(
                "{\"Address\":\"0x10\",\"Error\":{\"Message\":\"No such file or directory\"},\"ModuleName\":\"/x\"}");
        assertEquals("No such file or directory", err.error());
    }
}
