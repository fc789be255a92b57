package org.ompprof.ui.report;

/** One plain-sentence finding and what it costs (thread time), for ranking. */
record Finding(long costNs, String text) {}
