import { ApiProperty } from '@nestjs/swagger';

/** A matrix's status as answered (a matrix's `matrixStatus`, and what a shared grid shows of it). */
export class MatrixStatusView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['Active', 'Draft', 'Archived'] }) statusName: string;
  @ApiProperty() isActive: boolean;
}
