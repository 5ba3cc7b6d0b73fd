import { ValidationOptions, registerDecorator } from 'class-validator';
import { GroupAssignment, customAttributesProblem, groupsProblem } from './user-fields.rules';

/** `groups`: at most one primary organisation, each group once. */
export function ValidGroups(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'validGroups',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || groupsProblem(value as GroupAssignment[]) === null,
        defaultMessage: (args) => `${args?.property} ${groupsProblem(args?.value as GroupAssignment[]) ?? 'is invalid'}`,
      },
    });
}

/** `customAttributes`: a flat, bounded object of free key/values. */
export function IsCustomAttributes(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isCustomAttributes',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => customAttributesProblem(value) === null,
        defaultMessage: (args) => `${args?.property} ${customAttributesProblem(args?.value) ?? 'is invalid'}`,
      },
    });
}
