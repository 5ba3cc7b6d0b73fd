/** The statuses of a matrix (pure, no I/O): what matrices set and search by, and what a shared grid shows. */

/** The statuses of a matrix, with fixed ids (GET /matrix/v1/matrix/statuses; create and PUT take `matrixStatusId`). */
export const MATRIX_STATUSES = [
  { id: '0199a000-0000-7000-8000-000000000001', statusName: 'Active', isActive: true },
  { id: '0199a000-0000-7000-8000-000000000002', statusName: 'Draft', isActive: true },
  { id: '0199a000-0000-7000-8000-000000000003', statusName: 'Archived', isActive: true },
] as const;
export type MatrixStatusName = (typeof MATRIX_STATUSES)[number]['statusName'];
export const MATRIX_STATUS_NAMES = MATRIX_STATUSES.map((s) => s.statusName) as MatrixStatusName[];

export function statusById(id: string | undefined): (typeof MATRIX_STATUSES)[number] | undefined {
  if (id === undefined) return MATRIX_STATUSES[0];
  return MATRIX_STATUSES.find((s) => s.id === id.toLowerCase());
}

export function statusByName(name: string): (typeof MATRIX_STATUSES)[number] {
  return MATRIX_STATUSES.find((s) => s.statusName === name) ?? MATRIX_STATUSES[0];
}
