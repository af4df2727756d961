/**
 * A MAD transport that speaks ibsim's client protocol directly, so jrdma runs against a
 * simulated InfiniBand fabric exactly as the C tools do through libumad2sim.
 */
package org.jrdma.mad.sim;
