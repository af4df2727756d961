/** Helpers shared by jrdma's packages and not exported from the module. */
package org.jrdma.internal;
