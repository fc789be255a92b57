/*
 * Known answer: code without call-frame information, as hand-written assembly kernels and crt's
 * _fini and __do_global_dtors_aux are. Three assembly functions with no CFI directives:
 *  - asm_leaf(n): a loop of n steps with no frame at all;
 *  - asm_outer(n): saves rbx and r12, reserves 40 bytes, spins n steps itself, then calls asm_leaf
 *    four times, each behind a conditional branch (its frame must be followed along both ways);
 *  - asm_aligned(n): a frame-pointer frame whose stack pointer is aligned to 32 bytes (only rbp
 *    says where the return address is), calling asm_leaf;
 *  - asm_bigframe(n): OpenBLAS's kernels' frame: registers stored (not pushed), rsp kept in rbx,
 *    then 28 KiB reserved and aligned to a page, beyond the 16 KiB of stack a sample copies from
 *    rsp; a loop of n steps writing to it.
 * run() calls them serially and from a parallel region. Every sample in them must read
 * main;run;asm_outer[;asm_leaf], main;run;asm_aligned[;asm_leaf] or main;run;asm_bigframe, or the
 * same under run.omp_outlined, whole: nothing truncated.
 * usage: nocfi [N=30000000] (steps per call: about 0.4 s in all on 2 threads)
 */
#include <stdio.h>
#include <stdlib.h>

long asm_leaf(long n);
long asm_outer(long n);
long asm_aligned(long n);
long asm_bigframe(long n);

__asm__(".text\n"
        ".globl asm_leaf\n"
        ".type asm_leaf, @function\n"
        "asm_leaf:\n"
        "  mov %rdi, %rax\n"
        "  test %rdi, %rdi\n"
        "  jle 2f\n"
        "1:\n"
        "  imul $3, %rax, %rax\n"
        "  dec %rdi\n"
        "  jnz 1b\n"
        "2:\n"
        "  ret\n"
        ".size asm_leaf, .-asm_leaf\n"

        ".globl asm_outer\n"
        ".type asm_outer, @function\n"
        "asm_outer:\n"
        "  push %rbx\n"
        "  push %r12\n"
        "  sub $40, %rsp\n"
        "  mov %rdi, %rbx\n"
        "  mov %rdi, %r12\n"
        "1:\n"
        "  add %rbx, 8(%rsp)\n"
        "  dec %r12\n"
        "  jnz 1b\n"
        "  mov $4, %r12\n"
        "3:\n"
        "  test $1, %r12\n"
        "  jz 4f\n"
        "  mov %rbx, %rdi\n"
        "  call asm_leaf\n"
        "  jmp 5f\n"
        "4:\n"
        "  lea (%rbx), %rdi\n"
        "  call asm_leaf\n"
        "5:\n"
        "  dec %r12\n"
        "  jnz 3b\n"
        "  add $40, %rsp\n"
        "  pop %r12\n"
        "  pop %rbx\n"
        "  ret\n"
        ".size asm_outer, .-asm_outer\n"

        ".globl asm_aligned\n"
        ".type asm_aligned, @function\n"
        "asm_aligned:\n"
        "  push %rbp\n"
        "  mov %rsp, %rbp\n"
        "  and $-32, %rsp\n"
        "  sub $64, %rsp\n"
        "  call asm_leaf\n"
        "  leave\n"
        "  ret\n"
        ".size asm_aligned, .-asm_aligned\n"

        ".globl asm_bigframe\n"
        ".type asm_bigframe, @function\n"
        "asm_bigframe:\n"
        "  sub $0x60, %rsp\n"
        "  mov %rbx, (%rsp)\n"
        "  mov %rbp, 8(%rsp)\n"
        "  mov %rsp, %rbx\n"
        "  sub $0x7000, %rsp\n"
        "  and $-4096, %rsp\n"
        "  mov %rdi, %rax\n"
        "1:\n"
        "  mov %rax, %rdx\n"
        "  and $0xff8, %rdx\n"
        "  add %rax, (%rsp,%rdx)\n"
        "  dec %rax\n"
        "  jnz 1b\n"
        "  mov (%rsp), %rax\n"
        "  mov %rbx, %rsp\n"
        "  mov 8(%rsp), %rbp\n"
        "  mov (%rsp), %rbx\n"
        "  add $0x60, %rsp\n"
        "  ret\n"
        ".size asm_bigframe, .-asm_bigframe\n");

__attribute__((noinline)) long run(long n)
{
  long s = asm_outer(n) + asm_aligned(n) + asm_bigframe(n);
#pragma omp parallel reduction(+ : s)
  s += asm_outer(n) + asm_aligned(n) + asm_bigframe(n);
  return s;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 30000000;
  printf("%ld\n", run(n) & 1);
  return 0;
}
