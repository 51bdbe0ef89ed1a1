// A wave that never ends: it waits for a flag nothing sets (the wave instruction budget's test).
kernel void spin_forever(global volatile uint* flag) {
  while (flag[0] == 0) {
  }
}
