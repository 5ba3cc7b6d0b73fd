import { Module } from '@nestjs/common';

/** The matrix area. Its resources are added one folder each (see README, "Adding an endpoint"). */
@Module({})
export class MatrixModule {}
