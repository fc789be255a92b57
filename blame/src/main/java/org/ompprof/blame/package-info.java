/**
 * State metrics and blame shifting: undirected blame for idleness and barrier waiting,
 * directed blame for locks, critical, ordered and atomic waiting (issue 4).
 */
package org.ompprof.blame;
