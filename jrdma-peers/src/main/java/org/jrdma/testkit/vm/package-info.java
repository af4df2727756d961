/**
 * A soft-RoCE test peer: {@link org.jrdma.testkit.vm.SoftRoceVm} boots Debian's kernel under qemu
 * (software emulation) and runs a shell command inside with a working {@code rdma_rxe} device
 * {@code rxe0}, so that verbs code can be tested against a real provider without RDMA hardware.
 */
package org.jrdma.testkit.vm;
