/**
 * Calling-context trees, their metrics, the {@code .ompprof} profile format and the exports
 * (issue 3).
 */
package org.ompprof.calltree;
