package org.ompprof.ui.report;

import java.util.Locale;

/**
 * What the time around a program's explicit tasks says about their size. Either the tasks are small against their
 * overhead (creating and scheduling one costs a microsecond or more, so a task of a few microseconds, or a program
 * whose tasks spend a large share of their time in the runtime's task code, loses most of its time to it): fewer,
 * larger tasks save the waiting and the runtime's code (a cut-off, an if or final clause). Or the tasks are large and
 * the threads wait at a taskwait or a taskgroup's end for the longest of them to finish: larger tasks would make
 * that worse; creating the largest first (the others fill in around them) or splitting them saves it.
 *
 * @param tasks explicit tasks created (from the runtime's events: every one, sampled or not)
 * @param workNs work inside explicit tasks, the runtime's code they call included
 * @param runtimeNs the part of {@code workNs} in the runtime's code (creating and scheduling tasks)
 * @param taskwaitNs time threads waited in taskwait
 * @param taskgroupNs time threads waited at taskgroups' ends
 */
record TaskGranularity(long tasks, long workNs, long runtimeNs, long taskwaitNs, long taskgroupNs) {
    /** A task doing less work than this is small against its overhead (about a microsecond, more when contended). */
    static final long SMALL_NS = 20_000;
    /** Tasks spending at least this share of their work in the runtime's task code are small against it. */
    static final double RUNTIME_SHARE = 0.2;

    /** The mean work of a task outside the runtime's code. */
    long meanNs() {
        return tasks == 0 ? 0 : Math.max(0, workNs - runtimeNs) / tasks;
    }

    /** Whether the tasks are small against their overhead (else the waiting is for the longest tasks). */
    boolean small() {
        return meanNs() < SMALL_NS || runtimeNs >= RUNTIME_SHARE * workNs;
    }

    /** What fixing it would save: the task waiting and the runtime's task code. */
    long costNs() {
        return taskwaitNs + taskgroupNs + runtimeNs;
    }

    /**
     * The finding's sentence, at most {@link Finding#MAX_LENGTH} characters: what it costs, the task construct whose
     * tasks hold the most time with the function that creates them and the one they run, and the advice that fits.
     *
     * @param share the cost as a share of all thread time ({@code 12.1%})
     * @param construct the task construct with the most time ({@code task at q.c:63}, or {@code most time in task at
     *     q.c:63} among several), null if none
     * @param creator the user function that creates them ({@code make_tasks()}), null if unknown
     * @param body the user function the tasks run ({@code task_units()}), null if unknown
     */
    String text(String share, String construct, String creator, String body) {
        String text = null;
        for (int detail = 3; detail >= 0; detail--) { // fewer names until it fits
            String where = where(construct, detail >= 2 ? creator : null, detail >= 3 ? body : null, detail >= 1);
            text = small() ? smallText(share, where) : longestText(share, where);
            if (text.length() <= Finding.MAX_LENGTH) return text;
        }
        return text;
    }

    private static String where(String construct, String creator, String body, boolean any) {
        if (construct == null || !any) return "";
        return " (" + construct + (creator == null ? "" : " in " + creator) + (body == null ? "" : ", running " + body)
                + ")";
    }

    private String smallText(String share, String where) {
        long mean = meanNs();
        return String.format(
                Locale.ROOT,
                "%s of thread time is task waiting and task overhead: %,d tasks%s do %s of work each on average; "
                        + "make them larger (a cut-off, an if or final clause)",
                share,
                tasks,
                where,
                mean < 1000 ? "under a microsecond" : Report.time(mean));
    }

    private String longestText(String share, String where) {
        return String.format(
                Locale.ROOT,
                "%s of thread time is waiting %s for the longest tasks: %,d tasks%s take %s each on average; "
                        + "create the largest first, or split them",
                share,
                taskgroupNs >= taskwaitNs ? "at taskgroup ends" : "in taskwait",
                tasks,
                where,
                Report.time(meanNs()));
    }
}
