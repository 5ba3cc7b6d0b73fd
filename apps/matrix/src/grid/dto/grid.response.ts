import { ApiProperty } from '@nestjs/swagger';
import { MatrixStatusView } from '../../core/matrix-status.response';

export class GridColumnView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['user', 'position', 'group'] }) kind: 'user' | 'position' | 'group';
  @ApiProperty() name: string;
}

export class CellDelegationView {
  @ApiProperty({ format: 'uuid' }) delegationId: string;
  @ApiProperty({ type: String, nullable: true }) delegationDisplayId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) authorityTypeId: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Approval' }) authorityType: string | null;
  @ApiProperty({ type: String, nullable: true, example: '500000' }) value: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'USD' }) unit: string | null;
  @ApiProperty({ type: String, nullable: true, example: '<' }) operator: string | null;
  @ApiProperty({ example: '< 500K', description: 'The limit as matrixAuthorityFormatting shows it' }) formattedLimit: string;
  @ApiProperty({ example: 'Direct Line' }) pathway: string;
  @ApiProperty({ type: String, nullable: true, example: 'ISSUED' }) status: string | null;
  @ApiProperty() isInvalid: boolean;
}

export class GridCellView {
  @ApiProperty({ format: 'uuid' }) columnId: string;
  @ApiProperty({ type: [CellDelegationView] }) delegations: CellDelegationView[];
}

export class RowAuthorityView {
  @ApiProperty({ format: 'uuid' }) authorityTypeId: string;
  @ApiProperty({ type: String, nullable: true }) authorityType: string | null;
  @ApiProperty({ example: 'Primary' }) authorityLimit: string;
  @ApiProperty({ type: String, nullable: true }) value: string | null;
  @ApiProperty({ type: String, nullable: true }) unit: string | null;
  @ApiProperty({ type: String, nullable: true }) operator: string | null;
  @ApiProperty() formattedLimit: string;
}

export class GridRowView {
  @ApiProperty({ format: 'uuid' }) decisionId: string;
  @ApiProperty() decisionDisplayId: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) sectionName: string | null;
  @ApiProperty({ type: String, nullable: true }) categoryName: string | null;
  @ApiProperty({ type: [RowAuthorityView] }) authorities: RowAuthorityView[];
  @ApiProperty({ type: [GridCellView] }) cells: GridCellView[];
}

/** A page of the grid: rows (decisions) × columns (users, positions or groups). */
export class GridPageView {
  @ApiProperty({ type: [GridColumnView] }) columns: GridColumnView[];
  @ApiProperty({ type: [GridRowView] }) rows: GridRowView[];
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
  @ApiProperty({ description: 'Rows (decisions) of the matrix' }) total: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The instant the grid stood as (null: now)' }) at: string | null;
}

/** What an external link shows of the matrix. */
export class SharedMatrixView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() matrixId: string;
  @ApiProperty() matrixName: string;
  @ApiProperty({ type: String, nullable: true }) matrixDescription: string | null;
  @ApiProperty({ type: MatrixStatusView }) matrixStatus: MatrixStatusView;
}

export class SharedGridView {
  @ApiProperty({ type: SharedMatrixView }) matrix: SharedMatrixView;
  @ApiProperty({ type: GridPageView }) grid: GridPageView;
}
