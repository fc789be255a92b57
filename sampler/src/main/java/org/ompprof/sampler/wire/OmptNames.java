package org.ompprof.sampler.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/** Readable names for the OMPT enumerations found in records (values from omp-tools.h). */
public final class OmptNames {
    public static final int STATE_UNDEFINED = 0x102;

    /** ompt_state_t in the order a report lists them: work, waits, then the rest. */
    private static final Map<Integer, String> STATES = new LinkedHashMap<>();

    static {
        STATES.put(0x000, "work_serial");
        STATES.put(0x001, "work_parallel");
        STATES.put(0x002, "work_reduction");
        STATES.put(0x010, "barrier");
        STATES.put(0x011, "barrier_implicit_parallel");
        STATES.put(0x012, "barrier_implicit_workshare");
        STATES.put(0x013, "barrier_implicit");
        STATES.put(0x014, "barrier_explicit");
        STATES.put(0x015, "barrier_implementation");
        STATES.put(0x016, "barrier_teams");
        STATES.put(0x020, "taskwait");
        STATES.put(0x021, "taskgroup");
        STATES.put(0x040, "wait_mutex");
        STATES.put(0x041, "wait_lock");
        STATES.put(0x042, "wait_critical");
        STATES.put(0x043, "wait_atomic");
        STATES.put(0x044, "wait_ordered");
        STATES.put(0x080, "wait_target");
        STATES.put(0x081, "wait_target_map");
        STATES.put(0x082, "wait_target_update");
        STATES.put(0x100, "idle");
        STATES.put(0x101, "overhead");
        STATES.put(STATE_UNDEFINED, "undefined");
    }

    private OmptNames() {}

    /** The name of an ompt_state_t value, or {@code state_0x...} for one this table lacks. */
    public static String state(int state) {
        String name = STATES.get(state);
        return name != null ? name : String.format("state_0x%x", state);
    }

    /** Position of a state in report order (unknown states last, by value). */
    public static int stateOrder(int state) {
        int i = 0;
        for (int s : STATES.keySet()) {
            if (s == state) return i;
            i++;
        }
        return i + (state & 0xffff);
    }

    /** The name of an ompt_thread_t value. */
    public static String threadType(int type) {
        return switch (type) {
            case 0 -> "-";
            case 1 -> "initial";
            case 2 -> "worker";
            case 3 -> "other";
            case 4 -> "unknown";
            default -> "type" + type;
        };
    }

    /** The name of a {@code Wire.MODE_*} value. */
    public static String mode(int mode) {
        return switch (mode) {
            case Wire.MODE_WALL -> "wall";
            case Wire.MODE_CPU -> "cpu";
            default -> "mode" + mode;
        };
    }
}
