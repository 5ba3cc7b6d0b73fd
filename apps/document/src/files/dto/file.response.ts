import { ApiProperty } from '@nestjs/swagger';

/** An uploaded file: what POST /document/v1/files answers. */
export class FileView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ maxLength: 255, example: 'doa-policy.pdf' }) name: string;
  @ApiProperty({ description: 'Media type', example: 'application/pdf' }) type: string;
  @ApiProperty({ description: 'Bytes' }) size: number;
  @ApiProperty({ description: 'SHA-256 of the content, hex' }) sha256: string;
  @ApiProperty({ description: 'Where its content is read (GET)', example: '/document/v1/files/0190f5c4-0000-7000-8000-000000000001/content' }) link: string;
}
